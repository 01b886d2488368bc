// The in-memory model of a PyTorch CUDA memory snapshot (torch.cuda.memory._snapshot()).
// Strings, frames and stacks are interned so that a multi-GB dump with shared frame
// dicts costs a few bytes per event. Everything here is plain data; see snapshot_reader.h
// for how it is built and timeline/ for the memory_viz replay.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/snapshot/boxed_json.h"
#include "core/util/string_table.h"

namespace snapscope {

using FrameId = uint32_t;
using StackId = uint32_t;  // 0 is always the empty stack
inline constexpr uint32_t kNoIndex = std::numeric_limits<uint32_t>::max();
inline constexpr int64_t kNoTime = std::numeric_limits<int64_t>::min();

struct Frame {
  StringId name = 0;
  StringId filename = 0;
  int64_t line = 0;
  // Optional FX graph annotations (torch.compile); 0 when absent.
  StringId fx_node_op = 0;
  StringId fx_node_name = 0;
  StringId fx_node_target = 0;
  StringId fx_original_trace = 0;
  bool operator==(const Frame&) const = default;
};

class FrameTable {
 public:
  FrameId intern(const Frame& frame);
  const Frame& get(FrameId id) const { return frames_[id]; }
  size_t size() const { return frames_.size(); }

 private:
  struct Hash {
    size_t operator()(const Frame& f) const;
  };
  std::vector<Frame> frames_;
  std::unordered_map<Frame, FrameId, Hash> index_;
};

// Stacks are frame-id sequences, innermost frame first (the order torch records them).
class StackTable {
 public:
  StackTable();  // creates the empty stack as id 0
  StackId intern(std::span<const FrameId> frames);
  std::span<const FrameId> frames(StackId id) const;
  size_t size() const { return starts_.size() - 1; }

 private:
  // Open addressing, linear probing, at most half full: a lookup is one probe into a flat
  // array (a node-based multimap cost a cache miss per candidate, once per trace event).
  struct Slot {
    uint64_t hash = 0;
    StackId id = kEmptySlot;
  };
  static constexpr StackId kEmptySlot = std::numeric_limits<StackId>::max();
  static uint64_t hash(std::span<const FrameId> frames);
  void insert_slot(uint64_t hash, StackId id);
  void double_slots();

  std::vector<FrameId> data_;
  std::vector<uint64_t> starts_;  // size()+1 entries
  std::vector<Slot> slots_;       // a power of two long; holds every stack but the empty one
};

enum class Action : uint8_t {
  Alloc,
  FreeRequested,
  FreeCompleted,
  SegmentAlloc,
  SegmentFree,
  SegmentMap,
  SegmentUnmap,
  Snapshot,
  Oom,
  Unknown,  // kept, with its name in RareEventFields::unknown_action
};
std::string_view action_name(Action action);
Action parse_action(std::string_view name);  // Unknown for anything else

// A trace entry's stream, a cudaStream_t value, as an index into Snapshot::streams: a snapshot
// uses a handful of streams, and an index fits in TraceEvent's packed word.
using StreamId = uint32_t;  // 0 is always stream 0

class StreamTable {
 public:
  StreamId intern(uint64_t stream);
  uint64_t value(StreamId id) const { return id < values_.size() ? values_[id] : 0; }
  std::span<const uint64_t> values() const { return values_; }
  size_t size() const { return values_.size(); }

 private:
  std::vector<uint64_t> values_{0};
  std::unordered_map<uint64_t, StreamId> ids_{{0, 0}};
  StreamId last_ = 0;  // consecutive events mostly share a stream
};

struct EventExtra;

// Tens of millions of these are kept while a snapshot is read (the largest part of a
// converter's memory), so they take 32 bytes: what few events carry lives in EventExtra, and
// the action, two flags and a 26-bit link share one word. The link is the event's StreamId,
// or, for an event with an EventExtra, the extra's index (the extra then holds the stream).
struct TraceEvent {
  uint64_t addr = 0;  // for oom: device_free (bytes free on the device)
  uint64_t size = 0;
  int64_t time_us = kNoTime;  // kNoTime when the snapshot was recorded without timestamps
  StackId stack = 0;

  static constexpr uint32_t kLinkLimit = uint32_t{1} << 26;  // links are below this

  Action action() const { return static_cast<Action>(bits_ & kActionBits); }
  bool has_frames() const { return (bits_ & kHasFrames) != 0; }  // false: no 'frames' key at all
  bool has_extra() const { return (bits_ & kHasExtra) != 0; }
  uint32_t link() const { return bits_ >> kLinkShift; }  // a StreamId, or an event_extras index
  // The event's StreamId, given its extra (whichever table holds it).
  StreamId stream_id(const EventExtra& extra) const;

  void set_action(Action action) { bits_ = (bits_ & ~kActionBits) | static_cast<uint32_t>(action); }
  void set_has_frames(bool has) { bits_ = has ? bits_ | kHasFrames : bits_ & ~kHasFrames; }
  // Both need `link < kLinkLimit`.
  void link_stream(StreamId stream) { bits_ = (bits_ & kFlagBits & ~kHasExtra) | (stream << kLinkShift); }
  void link_extra(uint32_t extra) { bits_ = (bits_ & kFlagBits) | kHasExtra | (extra << kLinkShift); }

 private:
  static constexpr uint32_t kActionBits = 0xF;
  static constexpr uint32_t kHasFrames = 0x10;
  static constexpr uint32_t kHasExtra = 0x20;
  static constexpr uint32_t kFlagBits = kActionBits | kHasFrames | kHasExtra;
  static constexpr int kLinkShift = 6;
  static_assert(static_cast<uint32_t>(Action::Unknown) <= kActionBits);

  uint32_t bits_ = static_cast<uint32_t>(Action::Unknown);
};
static_assert(sizeof(TraceEvent) == 32);

using PoolIdPair = std::array<int64_t, 2>;

// Fields that few events carry.
struct RareEventFields {
  StringId unknown_action = 0;  // the raw action string when action == Unknown
  StringId forward_frames = 0;  // forward-pass stack, joined
  bool has_pool_id = false;
  PoolIdPair pool_id{0, 0};
  bool any() const { return unknown_action != 0 || forward_frames != 0 || has_pool_id; }
  bool operator==(const RareEventFields&) const = default;
};

// The two strings of an event that are events columns in elements.db.
struct EventTexts {
  StringId compile_context = 0;
  StringId user_metadata = 0;
};

// Fields kept out of TraceEvent to keep it small. compile_context is on every event of some
// snapshots (torch.compile), so this is small too, and consecutive events with equal extras
// share one.
struct EventExtra {
  StringId compile_context = 0;
  StringId user_metadata = 0;  // strings kept as is; dicts rendered as "key: value" lines
  uint32_t rare = kNoIndex;    // index into Snapshot::rare_event_fields
  StreamId stream = 0;         // the event's: its link names this extra instead
  // Whether an event needs an extra for more than its stream.
  bool any() const { return compile_context != 0 || user_metadata != 0 || rare != kNoIndex; }
  EventTexts texts() const { return {compile_context, user_metadata}; }
  bool operator==(const EventExtra&) const = default;
};

inline StreamId TraceEvent::stream_id(const EventExtra& extra) const {
  return has_extra() ? extra.stream : link();
}

enum class BlockState : uint8_t {
  ActiveAllocated,
  ActivePending,  // active_pending_free: freed but waiting on another stream
  Inactive,
  Unknown,
};
std::string_view block_state_name(BlockState state);

struct Block {
  uint64_t address = 0;  // computed as memory_viz does: segment address + sizes of earlier blocks
  uint64_t size = 0;
  uint64_t requested_size = 0;  // after memory_viz's legacy fallbacks (history[0].real_size, size)
  StackId stack = 0;            // frames, or history[0].frames for legacy dumps
  BlockState state = BlockState::Unknown;
  StringId raw_state = 0;
  uint32_t segment = 0;  // index into Snapshot::segments
};

struct Segment {
  int64_t device = 0;
  uint64_t address = 0;
  uint64_t total_size = 0;
  uint64_t allocated_size = 0;
  uint64_t active_size = 0;
  uint64_t requested_size = 0;
  uint64_t stream = 0;
  StringId segment_type = 0;
  int64_t pool_id[2] = {0, 0};
  bool is_expandable = false;
  StackId stack = 0;
  uint32_t first_block = 0;  // blocks [first_block, first_block + block_count) in Snapshot::blocks
  uint32_t block_count = 0;
};

struct Annotation {
  StringId stage = 0;  // "START" / "END"
  StringId name = 0;
  int64_t device = 0;
  int64_t time_us = kNoTime;
};

// Pinned host memory (host_segments / host_traces, written when memory history is recorded with
// record_pinned_host_memory=True) is shown as a device of its own. CUDA device indices are 8-bit
// (c10::DeviceIndex), so kHostDevice and up never name a GPU; a dump with several host traces
// gets kHostDevice, kHostDevice + 1, ...
inline constexpr int kHostDevice = 128;
inline constexpr int kMaxHostDevices = 8;
inline bool is_host_device(int device) {
  return device >= kHostDevice && device < kHostDevice + kMaxHostDevices;
}
// "device 0", "host (pinned)", "host 1 (pinned)": how panels, reports and exports name a device.
std::string device_name(int device);
// A --device value: a device number (0..65535), "host" (kHostDevice) or "hostN" (kHostDevice + N).
std::optional<int> parse_device(std::string_view text);

struct DeviceTrace {
  std::vector<TraceEvent> events;  // in recorded order; index = "event index" everywhere
};

struct Snapshot {
  std::string source_path;
  uint64_t source_bytes = 0;

  StringTable strings;
  FrameTable frames;
  StackTable stacks;

  std::vector<DeviceTrace> device_traces;  // index = device
  StreamTable streams;
  // A deque: it grows with no copy and no doubled peak, as it holds one entry per event in
  // snapshots with compile_context on every event.
  std::deque<EventExtra> event_extras;
  std::vector<RareEventFields> rare_event_fields;
  std::vector<Segment> segments;  // in file order
  std::vector<Block> blocks;
  std::vector<Annotation> annotations;
  BoxedJson allocator_settings;  // null when absent
  std::vector<std::string> top_level_keys;

  StreamId stream_id_of(const TraceEvent& event) const { return event.stream_id(extra_of(event)); }
  uint64_t stream_of(const TraceEvent& event) const { return streams.value(stream_id_of(event)); }
  // The event's fields outside TraceEvent; defaults (all absent) when it has none.
  const EventExtra& extra_of(const TraceEvent& event) const;
  const RareEventFields& rare_of(const TraceEvent& event) const;
  const PoolIdPair* pool_id_of(const TraceEvent& event) const;
  EventTexts texts_of(const TraceEvent& event) const { return extra_of(event).texts(); }

  // Devices memory_viz offers: a non-empty trace or at least one segment on it.
  std::vector<int> devices() const;
};

}  // namespace snapscope
