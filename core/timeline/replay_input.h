// What the memory_viz layout needs from a snapshot for one device and one view:
// the elements (allocations) and the ordered actions on them. It is derived from a
// Snapshot (derive_replay_input) or loaded from allocations.json, and is all Timeline needs.
#pragma once

#include <cstdint>
#include <vector>

#include "core/snapshot/model.h"

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

// One memory_viz element. Its index in ReplayInput::elements is memory_viz's `elem`.
struct ReplayElement {
  uint64_t addr = 0;
  uint64_t size = 0;
  int64_t alloc_event = -1;  // raw trace index of the alloc; -1 if none
  int64_t free_event = -1;   // raw trace index of the free_completed/segment_free; -1 if never freed
  // The event the element was created from: the alloc, or for FreeWithoutAlloc the free event.
  int64_t source_event = -1;
  uint32_t block = kNoIndex;    // Snapshot block index (SnapshotBlock) else kNoIndex
  uint32_t segment = kNoIndex;  // Snapshot segment index (SnapshotSegment / SnapshotBlock)
  StackId stack = 0;
  Origin origin = Origin::Traced;
  bool merged_free = false;  // FreeWithoutAlloc: the free_requested came directly before (action "free")
};

struct ReplayAction {
  uint32_t elem = 0;
  int64_t event = -1;  // raw trace index of the action's event; -1 for the synthetic action
};

struct ReplayInput {
  int device = 0;
  TimelineKind kind = TimelineKind::Blocks;
  std::vector<ReplayElement> elements;  // memory_viz element order
  std::vector<uint32_t> initial_stack;  // element ids live at t = 0, bottom to top
  std::vector<ReplayAction> actions;    // in trace order
  bool synthetic_action = false;        // trace had no actions; one initial element promoted
  std::vector<int64_t> action_time_us;  // per action (kNoTime if absent); empty if no time_us at all
};

// memory_viz's process_alloc_data element/action derivation (after annotate_snapshot's
// free_requested+free_completed merge), for one device. Pure function of the snapshot.
ReplayInput derive_replay_input(const Snapshot& snapshot, int device, TimelineKind kind);

}  // namespace snapscope
