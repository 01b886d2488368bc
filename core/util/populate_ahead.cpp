#include "core/util/populate_ahead.h"

#include <algorithm>

namespace snapscope {
namespace {
// One huge page at a time: the populating thread stays close behind what the writer asks for.
constexpr size_t kStep = size_t{2} << 20;
}  // namespace

PopulateAhead::PopulateAhead(MemoryRange range, size_t lead_bytes) : lead_(lead_bytes) {
  const uintptr_t page = memory_page_size();
  const auto begin = reinterpret_cast<uintptr_t>(range.begin);
  first_page_ = (begin + page - 1) / page * page;
  const uintptr_t end = (begin + range.bytes) / page * page;
  bytes_ = first_page_ < end ? end - first_page_ : 0;
  if (bytes_ > 0) thread_ = std::thread([this] { run(); });
}

PopulateAhead::~PopulateAhead() {
  stop_.store(true);
  written_.store(bytes_ + 1);  // a change the thread wakes to, whatever it waits for
  written_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void PopulateAhead::written(size_t bytes) {
  written_.store(bytes, std::memory_order_release);
  written_.notify_one();
}

void PopulateAhead::run() {
  const uintptr_t page = memory_page_size();
  size_t done = 0;
  while (!stop_.load() && done < bytes_) {
    const size_t seen = written_.load(std::memory_order_acquire);
    const size_t target = std::min(bytes_, seen + lead_);
    if (done >= target) {
      written_.wait(seen);  // until the writer moves on (or the destructor says stop)
      continue;
    }
    const size_t step = std::min(kStep, (target - done + page - 1) / page * page);
    const size_t end = std::min(bytes_, done + step);
    if (!populate_pages(first_page_ + done, first_page_ + end)) return;
    done = end;
    populated_.store(done, std::memory_order_release);
  }
}

}  // namespace snapscope
