#include "core/util/output_cleanup.h"

#include <unistd.h>

#include <atomic>
#include <cstring>

namespace snapscope::output_cleanup {
namespace {

constexpr int kSlots = 16;
constexpr size_t kMaxPath = 4096;

struct Slot {
  std::atomic<bool> taken{false};  // claimed by a writer
  std::atomic<bool> armed{false};  // path is complete and may be unlinked
  char path[kMaxPath];
};

Slot g_slots[kSlots];

}  // namespace

int add(const char* path) noexcept {
  const size_t length = std::strlen(path);
  if (length >= kMaxPath) return -1;
  for (int i = 0; i < kSlots; ++i) {
    bool expected = false;
    if (!g_slots[i].taken.compare_exchange_strong(expected, true)) continue;
    std::memcpy(g_slots[i].path, path, length + 1);
    g_slots[i].armed = true;
    return i;
  }
  return -1;
}

void remove(int slot) noexcept {
  if (slot < 0 || slot >= kSlots) return;
  g_slots[slot].armed = false;
  g_slots[slot].taken = false;
}

void unlink_all() noexcept {
  for (Slot& slot : g_slots) {
    if (slot.armed.exchange(false)) ::unlink(slot.path);
  }
}

}  // namespace snapscope::output_cleanup
