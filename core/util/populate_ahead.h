// Keeps the pages of a range populated a little ahead of one writer that fills it front to
// back, on a thread of its own. A first write to a fresh page is dear in a VM (the pickle
// reader spent a quarter of its time zeroing the pages of its event array and memo on first
// touch); populating them on the other core takes that off the reader's path, while only
// `lead_bytes` more than was written is ever taken.
#pragma once

#include <atomic>
#include <cstddef>
#include <thread>

#include "core/util/prefault.h"

namespace snapscope {

class PopulateAhead {
 public:
  // Starts populating the whole pages of `range` up to `lead_bytes` past what was written.
  // Best effort: the thread ends at once where the kernel cannot populate (before Linux 5.14).
  PopulateAhead(MemoryRange range, size_t lead_bytes);
  ~PopulateAhead();  // stops the thread; pages populated so far stay
  PopulateAhead(const PopulateAhead&) = delete;
  PopulateAhead& operator=(const PopulateAhead&) = delete;

  // The writer has written the range's first `bytes`. Cheap, but call it every megabyte or
  // so, not per element: each call may wake the thread.
  void written(size_t bytes);
  // Bytes from the range's first whole page that are populated (for tests).
  size_t populated_bytes() const { return populated_.load(std::memory_order_acquire); }

 private:
  void run();

  uintptr_t first_page_ = 0;
  size_t bytes_ = 0;  // whole pages from first_page_
  size_t lead_;
  std::atomic<size_t> written_{0};
  std::atomic<size_t> populated_{0};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace snapscope
