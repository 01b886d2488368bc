// Shrinks a snapshot's containers while it is being unpickled: frame dicts become FrameIds,
// lists of frames become StackIds, and trace-entry dicts (those with an 'action' key) become
// TraceEvents in a pool. This is what keeps memory far below the file size. A repeated key
// counts as Python counts it: the last value wins, and only that value's type is checked.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/pickle/unpickler.h"
#include "core/snapshot/event_pool.h"
#include "core/snapshot/event_sink.h"
#include "core/snapshot/model.h"

namespace snapscope {

// Pre-interned key strings, so key tests are integer compares.
struct SnapshotKeys {
  explicit SnapshotKeys(StringTable& strings);
  StringId action, addr, size, stream, time_us, frames, compile_context, user_metadata, device_free, pool_id,
      segment_pool_id, forward_frames, name, filename, line, fx_node_op, fx_node_name, fx_node_target,
      fx_original_trace;
};

// A chunk parser's trace entries (core/snapshot/parallel_reader.h), in its own tables, to be
// added to the whole file's in file order. Stack and frame ids with kExternal set name a memo
// entry from before the chunk instead (a frames list or frame dict the chunk refers back to).
struct ChunkEvents {
  static constexpr uint32_t kExternal = uint32_t{1} << 31;
  struct Side {
    uint32_t event = 0;
    EventExtra extra;  // without its stream
    RareEventFields rare;
  };
  std::vector<TraceEvent> events;  // link: the chunk's StreamId
  std::vector<Side> sides;         // the events with more than a stream, in order
};

class SnapshotReducer final : public pickle::ContainerReducer {
 public:
  // `sink` (optional) gets the events in pool-chunk batches as the chunks fill up. With
  // `only_device` >= 0, trace entries of other devices are not built (see make_event).
  // `expected_events` sizes the event pool (see EventPool).
  explicit SnapshotReducer(Snapshot& snapshot, EventSink* sink = nullptr, int only_device = -1,
                           size_t expected_events = 0);

  pickle::Value reduce(pickle::ContainerKind kind, std::span<const pickle::Value> items,
                       const pickle::Unpickler& unpickler) override;
  // The batch reader's: trace entries wait for their list; frames lists and frames are reduced
  // as they end (interning only).
  bool replaces_batch_item(std::span<const pickle::Value> items) const override;
  pickle::Value reduce_inner(pickle::ContainerKind kind, std::span<const pickle::Value> items,
                             const pickle::Unpickler& unpickler) override;

  // At most `max` (capped at TraceEvent::kLinkLimit) entries in Snapshot::event_extras.
  void limit_event_extras(uint32_t max) { max_event_extras_ = std::min(max, TraceEvent::kLinkLimit); }

  // Collect trace entries into `out` instead of the pool: the reducer of a chunk parser, whose
  // snapshot holds only the chunk's own strings, frames, stacks and streams.
  void collect_chunk(ChunkEvents* out) { chunk_ = out; }
  // Adds a trace entry whose stream, strings and stack are this snapshot's; returns its index.
  // make_event's last step, and how a chunk's entries join the pool.
  uint32_t add_event(TraceEvent event, EventExtra extra, const RareEventFields& rare);
  bool skips_device(const std::optional<pickle::Unpickler::ListSlot>& slot) const;

  EventPool& events() { return events_; }
  // Hands the sink the events of the last, partial batch. Call once, after the unpickler is done.
  void end_stream();
  // Calls the sink's finish(), which waits for it to let go of the pool: before the pool's
  // memory is freed or moved other than by events().take_all() of a pool that
  // hands_over_in_place(). Idempotent.
  void finish_stream();
  // After the snapshot is built: finish_keeping_batches() when the whole pool moved into a
  // trace in place, else finish_stream().
  void close_stream();

 private:
  using Items = std::span<const pickle::Value>;
  pickle::Value reduce_dict(Items dict, const pickle::Unpickler& up);
  pickle::Value reduce_list(Items list);
  pickle::Value make_frame(Items dict, const pickle::Unpickler& up);
  pickle::Value make_event(Items dict, const pickle::Unpickler& up);
  uint32_t append_event(TraceEvent event, EventExtra extra, const RareEventFields& rare);
  bool of_skipped_device(const pickle::Unpickler& up) const;
  pickle::Value collect(TraceEvent event, EventExtra extra, const RareEventFields& rare);
  void refuse_in_chunk(Items dict) const;
  void index_event_keys();
  StackId stack_of(pickle::Value frames) const;
  StringId optional_text(const pickle::Value* value, const pickle::Unpickler& up);
  void set_pool_id(RareEventFields& rare, pickle::Value value, const pickle::Unpickler& up);
  uint32_t add_rare_fields(const RareEventFields& rare);
  uint32_t add_extra(const EventExtra& extra);
  void hand_to_sink(size_t count);

  Snapshot& snapshot_;
  SnapshotKeys keys_;
  EventPool events_;
  EventSink* sink_ = nullptr;
  int only_device_ = -1;
  StringId device_traces_key_ = 0;
  size_t streamed_ = 0;        // events handed to sink_
  size_t streams_handed_ = 1;  // stream ids whose values sink_ has (0 it knows)
  size_t extras_handed_ = 0;   // event extras sink_ has
  uint32_t max_event_extras_ = TraceEvent::kLinkLimit;
  bool stream_closed_ = false;
  std::vector<FrameId> scratch_;
  std::vector<uint8_t> event_field_of_key_;  // a trace entry's field by key StringId (make_event)
  // The actions of the last action strings seen, direct-mapped by StringId (a trace has a few).
  struct KnownAction {
    StringId text = 0;
    Action action = Action::Unknown;
    bool known = false;
  };
  std::array<KnownAction, 16> known_actions_{};
  Action action_named(StringId text, const pickle::Unpickler& up);
  ChunkEvents* chunk_ = nullptr;
};

// Value helpers shared by the reducer and the snapshot builder. They throw
// pickle::ReduceError naming `what` when the value has the wrong type.
uint64_t to_u64(pickle::Value v, const char* what);
int64_t to_i64(pickle::Value v, const char* what);
StackId to_stack(pickle::Value v, const char* what);
StringId to_string_id(pickle::Value v, const char* what);  // None -> 0
// Renders a value as display text: strings as is, dicts as "key: value" lines, else repr.
std::string to_display_text(pickle::Value v, const pickle::Unpickler& up);
// A trace entry's forward_frames when it is not a list of frames: "file:line:function" lines,
// innermost first, from a list of Python traceback strings; else its text.
std::string forward_frames_text(pickle::Value v, const pickle::Unpickler& up);
// "filename:line:name" lines, innermost frame first.
std::string format_stack(const Snapshot& snapshot, StackId stack);

}  // namespace snapscope
