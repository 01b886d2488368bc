// What the memory_viz layout needs from a snapshot for one device and one view:
// the elements (allocations) and the ordered actions on them. It is derived from a
// Snapshot (derive_replay_input) or loaded from allocations.json, and is all Timeline needs.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "core/snapshot/model.h"
#include "core/timeline/action_times.h"
#include "core/util/column.h"

namespace snapscope {

enum class TimelineKind : uint8_t {
  Blocks,    // memory_viz "Active Memory Timeline": alloc / free_completed
  Segments,  // memory_viz "Active Cached Segment Timeline": segment_alloc / segment_free
};

enum class Origin : uint8_t {
  Traced,            // alloc (or segment_alloc) seen in the trace
  FreeWithoutAlloc,  // a free whose alloc happened before recording: live from t = 0
  SnapshotBlock,     // active_allocated block in the segment snapshot, never allocated in the trace
  SnapshotSegment,   // segment in the snapshot never allocated in the trace (segment timeline)
};
const char* origin_name(Origin origin);

// Raw trace index of an event inside a replay. 32 bits keep the two biggest arrays of an opened
// snapshot small (10M allocations: 240 MB less); a device trace of 2^31 events would be a pickle
// of hundreds of GB, and derive_replay_input refuses one.
using EventIndex = int32_t;
inline constexpr int64_t kMaxEventIndex = std::numeric_limits<EventIndex>::max();

// One memory_viz element. Its index in ReplayInput::elements is memory_viz's `elem`.
struct ReplayElement {
  uint64_t addr = 0;
  uint64_t size = 0;
  EventIndex alloc_event = -1;  // raw trace index of the alloc; -1 if none
  EventIndex free_event = -1;   // raw trace index of the free_completed/segment_free; -1 if never freed
  StackId stack = 0;
  Origin origin = Origin::Traced;
  bool merged_free = false;  // FreeWithoutAlloc: the free_requested came directly before (action "free")

  // The event the element was created from: the alloc, or for FreeWithoutAlloc the free event;
  // -1 for snapshot elements.
  int64_t source_event() const {
    if (origin == Origin::Traced) return alloc_event;
    return origin == Origin::FreeWithoutAlloc ? free_event : -1;
  }
};
static_assert(sizeof(ReplayElement) == 32, "millions of these are held in memory");

// An action allocates or frees its element; which one, and so its event, follows from the
// order of the actions (ActionEventWalk, Timeline::action_event).
struct ReplayAction {
  uint32_t elem = 0;
};
static_assert(sizeof(ReplayAction) == 4, "millions of these are held in memory");

// A snapshot element's block or segment (Snapshot::blocks / Snapshot::segments index). Only
// snapshot elements have one, so they are kept beside the elements, not in each of them.
struct ElementRef {
  uint32_t elem = 0;
  uint32_t index = 0;
  bool operator==(const ElementRef&) const = default;
};

struct ReplayInput {
  int device = 0;
  TimelineKind kind = TimelineKind::Blocks;
  Column<ReplayElement> elements;       // memory_viz element order
  Column<uint32_t> initial_stack;       // element ids live at t = 0, bottom to top
  Column<ReplayAction> actions;         // in trace order
  bool synthetic_action = false;        // trace had no actions; one initial element promoted
  ActionTimes action_time_us;           // per action (kNoTime if absent); empty if no time_us at all
  Column<ElementRef> element_blocks;    // SnapshotBlock elements' block, ascending elem
  Column<ElementRef> element_segments;  // snapshot elements' segment, ascending elem

  // kNoIndex for elements without one.
  uint32_t block_of(uint32_t elem) const { return find_ref(element_blocks, elem); }
  uint32_t segment_of(uint32_t elem) const { return find_ref(element_segments, elem); }
  // Some action has a time: without one, nothing can be placed by time on this timeline.
  bool has_action_times() const;

  // What a timeline image stores (core/store/timeline_image), in one order for both ways.
  template <typename Self, typename Parts>
  static void parts_of(Self& self, Parts& parts) {
    parts.value(self.device);
    parts.value(self.kind);
    parts.value(self.synthetic_action);
    parts.column(self.elements);
    parts.column(self.initial_stack);
    parts.column(self.actions);
    PackedInt64s::parts_of(self.action_time_us, parts);
    parts.column(self.element_blocks);
    parts.column(self.element_segments);
  }
  // After parts_of has filled them: std::invalid_argument unless every element index is in range.
  void check_parts() const;

 private:
  static uint32_t find_ref(std::span<const ElementRef> refs, uint32_t elem);
};

// The raw trace index of each action's event, in action order. memory_viz's replay frees an
// element at its action iff the element is live before it, and an element is never allocated
// again after its free: an element's first action allocates it (its alloc_event; -1 for the
// synthetic action), unless it starts on the initial stack, and its other action frees it (its
// free_event). Elements must be in range (the readers and derive_replay_input ensure it).
class ActionEventWalk {
 public:
  explicit ActionEventWalk(const ReplayInput& input);
  EventIndex next(const ReplayAction& action);  // the next action's event

 private:
  const ReplayInput& input_;
  std::vector<bool> seen_;  // per element: on the initial stack or already acted on
};

// memory_viz's process_alloc_data element/action derivation (after annotate_snapshot's
// free_requested+free_completed merge), for one device. Pure function of the snapshot.
ReplayInput derive_replay_input(const Snapshot& snapshot, int device, TimelineKind kind);

}  // namespace snapscope
