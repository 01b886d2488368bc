#include "core/allocator/allocator_history.h"

#include <algorithm>
#include <future>
#include <stdexcept>
#include <utility>

namespace snapscope {
namespace {

constexpr size_t kReadChunk = 65536;  // events read from the source at once in the backward pass

// The backward pass's chunks of events, last first, each read on its own thread while the one
// after it is undone: for a history over elements.db, SQLite's reading is about half the pass.
// The source still sees one read at a time, in the order the pass would make them.
class BackwardChunks {
 public:
  struct Chunk {
    size_t begin = 0, end = 0;  // the events to undo, [begin, end)
    size_t read_begin = 0;      // events[0]'s index: one more on each side, for merged-free pairs
    std::vector<AllocatorEvent> events;
  };

  BackwardChunks(EventSource& source, size_t count) : source_(source), count_(count), next_end_(count) {
    read_ahead({});
  }
  ~BackwardChunks() {
    if (pending_.valid()) pending_.wait();  // the read uses the source and this
  }
  BackwardChunks(const BackwardChunks&) = delete;
  BackwardChunks& operator=(const BackwardChunks&) = delete;

  // The next chunk down into `chunk` (whose buffer the read after it reuses); false at the start
  // of the trace. Throws what the source's read threw.
  bool next(Chunk& chunk) {
    if (!pending_.valid()) return false;
    Chunk arrived = pending_.get();
    std::swap(chunk, arrived);
    read_ahead(std::move(arrived.events));
    return true;
  }

 private:
  void read_ahead(std::vector<AllocatorEvent> buffer) {
    if (next_end_ == 0) return;
    Chunk chunk;
    chunk.end = next_end_;
    chunk.begin = chunk.end > kReadChunk ? chunk.end - kReadChunk : 0;
    chunk.read_begin = chunk.begin > 0 ? chunk.begin - 1 : 0;
    chunk.events = std::move(buffer);
    next_end_ = chunk.begin;
    pending_ = std::async(std::launch::async, [this, chunk = std::move(chunk)]() mutable {
      source_.read(chunk.read_begin, std::min(count_, chunk.end + 1), chunk.events);
      return std::move(chunk);
    });
  }

  EventSource& source_;
  size_t count_;
  size_t next_end_;  // the end of the chunk to read next
  std::future<Chunk> pending_;
};

AllocatorEvent to_allocator_event(const TraceEvent& event, const Snapshot& snapshot) {
  return {event.addr, event.size, snapshot.stream_of(event), event.stack, event.action()};
}

}  // namespace

SnapshotEventSource::SnapshotEventSource(const Snapshot& snapshot, int device) {
  const auto index = static_cast<size_t>(device);
  if (device < 0 || index >= snapshot.device_traces.size()) return;
  const std::vector<TraceEvent>& trace = snapshot.device_traces[index].events;
  events_.reserve(trace.size());
  for (const TraceEvent& event : trace) events_.push_back(to_allocator_event(event, snapshot));
}

void SnapshotEventSource::read(size_t begin, size_t end, std::vector<AllocatorEvent>& out) {
  end = std::min(end, events_.size());
  out.assign(events_.begin() + static_cast<std::ptrdiff_t>(std::min(begin, end)),
             events_.begin() + static_cast<std::ptrdiff_t>(end));
}

TraceEventView::TraceEventView(const Snapshot& snapshot, int device) {
  const auto index = static_cast<size_t>(device);
  if (device >= 0 && index < snapshot.device_traces.size()) events_ = &snapshot.device_traces[index].events;
  snapshot_ = &snapshot;
}

void TraceEventView::read(size_t begin, size_t end, std::vector<AllocatorEvent>& out) {
  end = std::min(end, size());
  begin = std::min(begin, end);
  out.clear();
  for (size_t i = begin; i < end; ++i) out.push_back(to_allocator_event((*events_)[i], *snapshot_));
}

AllocatorState final_state_from_snapshot(const Snapshot& snapshot, int device) {
  AllocatorState state;
  for (const Segment& segment : snapshot.segments) {
    if (segment.device != device) continue;
    state.add_segment({segment.address, segment.total_size, segment.stream, segment.stack});
    for (uint32_t b = segment.first_block; b < segment.first_block + segment.block_count; ++b) {
      const Block& block = snapshot.blocks[b];
      if (block.state != BlockState::ActiveAllocated && block.state != BlockState::ActivePending) continue;
      state.add_block({block.address, block.size, block.requested_size, block.stack,
                       block.state == BlockState::ActivePending});
    }
  }
  return state;
}

size_t AllocatorHistory::Checkpoint::bytes() const {
  return sizeof(Checkpoint) + segments.size() * sizeof(AllocatorSegment) +
         blocks.size() * sizeof(AllocatorBlock);
}

AllocatorHistory::AllocatorHistory(AllocatorState final_state, std::unique_ptr<EventSource> events,
                                   size_t budget_bytes, size_t initial_interval,
                                   const std::atomic<bool>* cancel)
    : events_(std::move(events)),
      event_count_(events_->size()),
      budget_(budget_bytes),
      interval_(std::max<size_t>(1, initial_interval)) {
  build(std::move(final_state), cancel);
}

bool AllocatorHistory::replace_events(std::unique_ptr<EventSource> events) {
  if (!events || events->size() != event_count_) return false;
  const std::lock_guard lock(query_mutex_);
  events_ = std::move(events);
  return true;
}

void AllocatorHistory::build(AllocatorState state, const std::atomic<bool>* cancel) {
  store(event_count_, state);
  BackwardChunks chunks(*events_, event_count_);
  BackwardChunks::Chunk chunk;
  while (true) {
    if (cancel != nullptr && cancel->load()) throw std::runtime_error("cancelled");
    if (!chunks.next(chunk)) break;
    const std::vector<AllocatorEvent>& events = chunk.events;
    for (size_t position = chunk.end; position > chunk.begin; --position) {
      const size_t index = position - 1;
      const size_t local = index - chunk.read_begin;
      const AllocatorEvent* previous = local > 0 ? &events[local - 1] : nullptr;
      const AllocatorEvent* next = local + 1 < events.size() ? &events[local + 1] : nullptr;
      note_event(index, events[local]);
      state.undo(events[local], previous, next);
      if (index % interval_ == 0) store(index, state);
    }
  }
  end_stream_run();
  std::reverse(checkpoints_.begin(), checkpoints_.end());
  std::reverse(ooms_.begin(), ooms_.end());
  std::vector<std::pair<size_t, uint64_t>> first_uses;
  for (const auto& [stream, first] : stream_first_use_) {
    if (stream != 0) first_uses.emplace_back(first, stream);
  }
  std::sort(first_uses.begin(), first_uses.end());
  for (size_t i = 0; i < first_uses.size(); ++i) stream_names_[first_uses[i].second] = i + 1;
}

// Events come last first: the stream's earliest use seen so far is this one. Consecutive events
// nearly always share a stream, so the map is only written when the stream changes.
void AllocatorHistory::note_event(size_t index, const AllocatorEvent& event) {
  if (event.stream != run_stream_) {
    end_stream_run();
    run_stream_ = event.stream;
  }
  run_first_ = index;
  if (event.action == Action::Oom) ooms_.push_back({index, event.size, event.addr});
}

// The run's earliest event is its stream's first use so far (the pass goes backwards).
void AllocatorHistory::end_stream_run() {
  if (run_first_ != kNoRun) stream_first_use_[run_stream_] = run_first_;
}

void AllocatorHistory::store(size_t position, const AllocatorState& state) {
  Checkpoint checkpoint;
  checkpoint.position = position;
  checkpoint.segments.reserve(state.segments().size());
  for (const auto& entry : state.segments()) checkpoint.segments.push_back(entry.second);
  checkpoint.blocks = state.blocks().unordered();  // restore() needs no order
  stored_bytes_ += checkpoint.bytes();
  checkpoints_.push_back(std::move(checkpoint));
  while (stored_bytes_ > budget_ && checkpoints_.size() > 2) thin_out();
}

void AllocatorHistory::thin_out() {
  interval_ *= 2;
  std::vector<Checkpoint> kept;
  stored_bytes_ = 0;
  for (Checkpoint& checkpoint : checkpoints_) {
    if (checkpoint.position % interval_ != 0 && checkpoint.position != event_count_) continue;
    stored_bytes_ += checkpoint.bytes();
    kept.push_back(std::move(checkpoint));
  }
  checkpoints_ = std::move(kept);
}

AllocatorState AllocatorHistory::restore(const Checkpoint& checkpoint) {
  AllocatorState state;
  for (const AllocatorSegment& segment : checkpoint.segments) state.add_segment(segment);
  state.reserve_blocks(checkpoint.blocks.size());
  for (const AllocatorBlock& block : checkpoint.blocks) state.add_block(block);
  return state;
}

void AllocatorHistory::undo_range(AllocatorState& state, size_t from, size_t to) {
  if (from >= to) return;
  const size_t read_begin = from > 0 ? from - 1 : 0;
  events_->read(read_begin, std::min(event_count_, to + 1), buffer_);
  for (size_t index = to; index-- > from;) {
    const size_t local = index - read_begin;
    const AllocatorEvent* previous = local > 0 ? &buffer_[local - 1] : nullptr;
    const AllocatorEvent* next = local + 1 < buffer_.size() ? &buffer_[local + 1] : nullptr;
    state.undo(buffer_[local], previous, next);
  }
}

AllocatorState AllocatorHistory::at_position(size_t position) {
  const std::lock_guard lock(query_mutex_);
  position = std::min(position, event_count_);
  const auto found = std::lower_bound(checkpoints_.begin(), checkpoints_.end(), position,
                                      [](const Checkpoint& c, size_t p) { return c.position < p; });
  AllocatorState state = restore(*found);  // the final state is always stored, so one exists
  undo_range(state, position, found->position);
  return state;
}

AllocatorState AllocatorHistory::after_event(int64_t event) {
  return at_position(event < 0 ? 0 : static_cast<size_t>(event) + 1);
}

uint64_t AllocatorHistory::stream_name(uint64_t stream) const {
  const auto found = stream_names_.find(stream);
  return found == stream_names_.end() ? stream : found->second;
}

std::unique_ptr<AllocatorHistory> allocator_history_from_snapshot(const Snapshot& snapshot, int device,
                                                                  const std::atomic<bool>* cancel) {
  auto history = std::make_unique<AllocatorHistory>(
      final_state_from_snapshot(snapshot, device), std::make_unique<TraceEventView>(snapshot, device),
      AllocatorHistory::kDefaultBudget, AllocatorHistory::kDefaultInterval, cancel);
  SegmentPools pools;
  for (const Segment& segment : snapshot.segments) {
    if (segment.device == device)
      pools.add(segment.address, segment.total_size, {segment.pool_id[0], segment.pool_id[1]});
  }
  history->set_pools(std::move(pools));
  return history;
}

}  // namespace snapscope
