#include "core/snapshot/event_pool.h"

#include <algorithm>

#include "core/util/prefault.h"

namespace snapscope {

namespace {
// Below this a segment keeps small pages: a fuzzer's tiny inputs must not zero 2 MiB pages.
constexpr size_t kHugePageSegmentBytes = size_t{4} << 20;
// From this size a segment's pages are populated on another thread ahead of the events
// (PopulateAhead): a first write to each page was a sixth of reading a 1 GB pickle.
constexpr size_t kPopulateAheadSegmentBytes = size_t{64} << 20;
constexpr size_t kPopulateLeadBytes = size_t{8} << 20;  // two batches and more
}  // namespace

EventPool::EventPool(size_t expected_events)
    : capacity_(std::max<size_t>(1, (expected_events + kBatch - 1) / kBatch) * kBatch) {}

void EventPool::add_segment() {
  populate_ahead_.reset();
  std::vector<TraceEvent>& segment = segments_.emplace_back();
  segment.reserve(capacity_);  // pages are taken as events are written, not here
  const size_t bytes = capacity_ * sizeof(TraceEvent);
  if (bytes >= kHugePageSegmentBytes) advise_huge_pages(segment.data(), bytes);
  if (bytes >= kPopulateAheadSegmentBytes) {
    populate_ahead_ = std::make_unique<PopulateAhead>(MemoryRange{segment.data(), bytes}, kPopulateLeadBytes);
  }
}

std::vector<TraceEvent> EventPool::take_all() {
  populate_ahead_.reset();
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
