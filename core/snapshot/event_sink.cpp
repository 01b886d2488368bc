#include "core/snapshot/event_sink.h"

namespace snapscope {

void EventBatchTables::add(const EventBatch& batch) {
  streams_.insert(streams_.end(), batch.new_streams.begin(), batch.new_streams.end());
  extras_ = batch.extras;
  first_extra_ = batch.first_extra;
}

const EventExtra& EventBatchTables::extra_of(const TraceEvent& event) const {
  static const EventExtra kNone;
  if (!event.has_extra() || event.link() < first_extra_) return kNone;
  const size_t at = event.link() - first_extra_;
  return at < extras_.size() ? extras_[at] : kNone;
}

uint64_t EventBatchTables::stream_of(const TraceEvent& event) const {
  const StreamId id = event.stream_id(extra_of(event));
  return id < streams_.size() ? streams_[id] : 0;
}

EventTexts EventBatchTables::texts_of(const TraceEvent& event) const { return extra_of(event).texts(); }

}  // namespace snapscope
