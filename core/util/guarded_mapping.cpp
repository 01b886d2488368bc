#include "core/util/guarded_mapping.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>

namespace snapscope {
namespace {

// The guarded mappings, as the signal handler sees them: a fixed table of atomics, since a
// handler may neither lock nor allocate. A slot is taken by storing its end last and freed by
// clearing its end first.
constexpr int kSlots = 32;
struct Slot {
  std::atomic<uintptr_t> begin{0};
  std::atomic<uintptr_t> end{0};  // 0: free
  std::atomic<bool> shrank{false};
};
Slot g_slots[kSlots];
std::mutex g_slots_mutex;  // between threads taking and freeing slots; never in the handler

struct sigaction g_previous {};

size_t page_bytes() {
  static const size_t bytes = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  return bytes;
}

// The default action for a fault that is no one's: restored, it runs when the faulting access
// is retried on return.
void pass_on(int signal_number, siginfo_t* info, void* context) {
  if ((g_previous.sa_flags & SA_SIGINFO) != 0 && g_previous.sa_sigaction != nullptr) {
    g_previous.sa_sigaction(signal_number, info, context);
    return;
  }
  if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
    g_previous.sa_handler(signal_number);
    return;
  }
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  ::sigaction(signal_number, &fallback, nullptr);
}

void on_sigbus(int signal_number, siginfo_t* info, void* context) {
  const auto address = reinterpret_cast<uintptr_t>(info->si_addr);
  for (Slot& slot : g_slots) {
    const uintptr_t end = slot.end.load(std::memory_order_acquire);
    const uintptr_t begin = slot.begin.load(std::memory_order_relaxed);
    if (end == 0 || address < begin || address >= end) continue;
    // Zeros from the faulting page to the end of the mapping: the access is retried over them.
    const uintptr_t page = address & ~(uintptr_t{page_bytes()} - 1);
    void* zeros = ::mmap(reinterpret_cast<void*>(page), end - page, PROT_READ,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (zeros == MAP_FAILED) break;
    slot.shrank.store(true, std::memory_order_release);
    return;
  }
  pass_on(signal_number, info, context);
}

void install_handler() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action {};
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGBUS, &action, &g_previous);
  });
}

int take_slot(uintptr_t begin, uintptr_t end) {
  const std::lock_guard lock(g_slots_mutex);
  for (int i = 0; i < kSlots; ++i) {
    Slot& slot = g_slots[i];
    if (slot.end.load(std::memory_order_relaxed) != 0) continue;
    slot.shrank.store(false, std::memory_order_relaxed);
    slot.begin.store(begin, std::memory_order_relaxed);
    slot.end.store(end, std::memory_order_release);
    return i;
  }
  return -1;
}

void free_slot(int i) {
  const std::lock_guard lock(g_slots_mutex);
  g_slots[i].end.store(0, std::memory_order_release);
}

}  // namespace

GuardedMapping::GuardedMapping(int fd, uint64_t size) {
  if (size == 0 || size > SIZE_MAX - page_bytes()) return;
  install_handler();
  const size_t bytes = (static_cast<size_t>(size) + page_bytes() - 1) & ~(page_bytes() - 1);
  void* mapped = ::mmap(nullptr, bytes, PROT_READ, MAP_PRIVATE, fd, 0);
  if (mapped == MAP_FAILED) return;
  const auto begin = reinterpret_cast<uintptr_t>(mapped);
  slot_ = take_slot(begin, begin + bytes);
  if (slot_ < 0) {
    ::munmap(mapped, bytes);
    return;
  }
  ::madvise(mapped, bytes, MADV_SEQUENTIAL);
  data_ = static_cast<const uint8_t*>(mapped);
  size_ = size;
  mapped_bytes_ = bytes;
}

GuardedMapping::~GuardedMapping() {
  if (data_ == nullptr) return;
  free_slot(slot_);
  ::munmap(const_cast<uint8_t*>(data_), mapped_bytes_);
}

bool GuardedMapping::shrank() const {
  return data_ != nullptr && g_slots[slot_].shrank.load(std::memory_order_acquire);
}

void GuardedMapping::release_before(uint64_t offset) {
  if (data_ == nullptr) return;
  const size_t whole = static_cast<size_t>(std::min<uint64_t>(offset, size_)) & ~(page_bytes() - 1);
  if (whole <= released_bytes_) return;
  ::madvise(const_cast<uint8_t*>(data_) + released_bytes_, whole - released_bytes_, MADV_DONTNEED);
  released_bytes_ = whole;
}

}  // namespace snapscope
