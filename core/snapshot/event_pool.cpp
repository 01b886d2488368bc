#include "core/snapshot/event_pool.h"

#include <algorithm>

#include "core/util/prefault.h"

namespace snapscope {

namespace {
// Below this a segment keeps small pages: a fuzzer's tiny inputs must not zero 2 MiB pages.
constexpr size_t kHugePageSegmentBytes = size_t{4} << 20;
}  // namespace

EventPool::EventPool(size_t expected_events)
    : capacity_(std::max<size_t>(1, (expected_events + kBatch - 1) / kBatch) * kBatch) {}

void EventPool::add_segment() {
  std::vector<TraceEvent>& segment = segments_.emplace_back();
  segment.reserve(capacity_);  // pages are taken as events are written, not here
  if (capacity_ * sizeof(TraceEvent) >= kHugePageSegmentBytes) {
    advise_huge_pages(segment.data(), capacity_ * sizeof(TraceEvent));
  }
}

std::vector<TraceEvent> EventPool::take_all() {
  std::vector<TraceEvent> all;
  if (segments_.size() == 1) {
    all = std::move(segments_.front());
  } else {
    all.reserve(size_);
    advise_huge_pages(all.data(), size_ * sizeof(TraceEvent));
    for (std::vector<TraceEvent>& segment : segments_) {
      all.insert(all.end(), segment.begin(), segment.end());
      std::vector<TraceEvent>().swap(segment);  // the peak is the whole plus one segment
    }
  }
  segments_.clear();
  size_ = 0;
  return all;
}

size_t expected_events_for(uint64_t bytes) { return static_cast<size_t>(bytes / 64); }

}  // namespace snapscope
