#include "core/snapshot/event_sink.h"

namespace snapscope {

void EventBatchTables::add(const EventBatch& batch) {
  streams_.insert(streams_.end(), batch.new_streams.begin(), batch.new_streams.end());
  texts_ = batch.texts;
  first_extra_ = batch.first_extra;
}

uint64_t EventBatchTables::stream_of(const TraceEvent& event) const {
  return event.stream_id < streams_.size() ? streams_[event.stream_id] : 0;
}

EventTexts EventBatchTables::texts_of(const TraceEvent& event) const {
  const size_t at = size_t{event.extra} - first_extra_;
  return event.extra != kNoIndex && event.extra >= first_extra_ && at < texts_.size() ? texts_[at]
                                                                                      : EventTexts{};
}

}  // namespace snapscope
