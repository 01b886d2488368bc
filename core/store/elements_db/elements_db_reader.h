// The one reader of elements.db (the writer is elements_db.h; schema: docs/FORMAT.md). Every
// query the viewer, the exports and the analysis run against a converted snapshot's database is
// here, returning the model's own types (Frame, StackId) or plain rows; the layers above turn the
// rows into what they show. A stack is read one way: stack_frames() gives its frame ids (innermost
// first), frame() and string() resolve them; stack_tables() loads all three tables at once.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/snapshot/model.h"
#include "core/timeline/replay_input.h"
#include "core/timeline/reserved_series.h"

namespace snapscope {

class SqliteDatabase;
class SqliteStatement;

// An allocation's row in allocation_view / segment_allocation_view, with the strings it names.
struct AllocationRow {
  uint64_t address = 0;
  uint64_t size = 0;
  std::optional<uint64_t> requested_size;  // blocks only
  uint64_t stream = 0;
  std::optional<int64_t> alloc_event, free_event;
  std::optional<int64_t> alloc_time_us, free_time_us;
  uint64_t total_after_alloc = 0;
  int64_t origin = 0;    // an Origin, unchecked
  int64_t stack_id = 0;  // unchecked: a crafted file may name no stack
  std::string compile_context, user_metadata;
  std::optional<std::string> forward_frames;      // the alloc event's forward stack, as text
  std::optional<std::array<int64_t, 2>> pool_id;  // the alloc event's private pool (CUDA graphs)
};

// An "annotate" trace event (torch.cuda.memory._annotate_memory): metadata attached to a live
// allocation after it was made, keyed by its address, with the annotating call's stack.
struct MemoryNoteRow {
  int64_t event = 0;
  std::optional<int64_t> time_us;
  std::string metadata;  // the event's user_metadata
  int64_t stack_id = 0;  // unchecked
};

// One annotate event of a device: when, at which address, and its metadata.
struct AnnotateEventRow {
  int64_t event = 0;
  uint64_t address = 0;
  std::string metadata;
};

// Where and when an annotate event noted something: the allocation live at `address` then.
struct AddressAtEvent {
  uint64_t address = 0;
  int64_t event = 0;
};

// The strings, frames and stacks tables whole. Ids index the vectors; stack s is
// stack_frames[stack_begin[s], stack_begin[s + 1]) (stack_begin has one more entry than stacks).
struct StackTables {
  std::vector<std::string> strings;
  std::vector<Frame> frames;
  std::vector<uint64_t> stack_begin;
  std::vector<FrameId> stack_frames;
};

// One row of the events table (a device's trace, in order).
struct EventRow {
  int64_t index = 0;
  int64_t action = 0;  // an Action, unchecked
  uint64_t address = 0, size = 0, stream = 0;
  StackId stack = 0;
};

// The end-of-trace allocator state: segments and their live blocks.
struct SegmentRow {
  uint64_t address = 0, total_size = 0, stream = 0;
  StackId stack = 0;
  std::array<int64_t, 2> pool_id{};  // segment_pool_id; (0, 0) is the default pool
};
struct LiveBlockRow {
  uint64_t address = 0, size = 0, requested_size = 0;
  StackId stack = 0;
  bool pending_free = false;
};

struct AnnotationRow {
  std::string stage, name;
  int64_t device = 0;
  int64_t time_us = kNoTime;
};

// Read-only connection to one elements.db. Not thread-safe (it reuses prepared statements):
// each thread opens its own. Every failure throws std::runtime_error("<path>: <reason>").
class ElementsDbReader {
 public:
  // Opens `path` read-only (hardened against crafted files) and refuses other format versions.
  explicit ElementsDbReader(const std::string& path);
  ~ElementsDbReader();
  ElementsDbReader(const ElementsDbReader&) = delete;
  ElementsDbReader& operator=(const ElementsDbReader&) = delete;

  const std::string& path() const;

  // Stacks, frames and strings by id: empty / nullopt when the row is missing.
  std::vector<FrameId> stack_frames(StackId stack) const;
  std::optional<Frame> frame(FrameId id) const;
  std::optional<std::string> string(StringId id) const;
  // The three tables whole; throws when ids have gaps or stacks are out of order.
  StackTables stack_tables() const;

  std::optional<AllocationRow> allocation(int device, TimelineKind kind, uint32_t elem) const;

  // The events whose user_metadata or compile_context string contains `text` (ASCII
  // case-insensitive), ascending: the allocations they allocate are found in the timeline
  // (elements_allocated_by in core/cursor). Scans the device's events: about a second per GB.
  std::vector<int64_t> events_with_metadata(int device, std::string_view text) const;
  // The annotate events whose metadata contains `text` (the same match), as address and event:
  // the allocation each names is found in the timeline (elements_live_at in core/cursor).
  std::vector<AddressAtEvent> notes_with_metadata(int device, std::string_view text) const;

  // The annotate events of `address` on the device strictly between two events (the lifetime of
  // the allocation there), in trace order. A scan of the device's rare events (event_extras).
  std::vector<MemoryNoteRow> memory_notes(int device, uint64_t address, int64_t after_event,
                                          int64_t before_event) const;
  // Every annotate event of the device, in trace order (the chart's note markers).
  std::vector<AnnotateEventRow> annotate_events(int device) const;
  // (event index, forward stack text) of the device's events that carry forward_frames.
  std::vector<std::pair<int64_t, std::string>> forward_frames_events(int device) const;

  size_t event_count(int device) const;  // 0 for an unknown device
  // Events [begin, end) of one device's trace, in order (rows a crafted file lacks are absent).
  void read_events(int device, size_t begin, size_t end, std::vector<EventRow>& out) const;
  // The device's segment_alloc / segment_free / segment_map / segment_unmap events, in order: a
  // scan of its events (seconds on a multi-GB trace).
  std::vector<EventRow> segment_events(int device) const;
  // The private pool each event that names one carries (event_extras), by event index.
  std::vector<std::pair<int64_t, std::array<int64_t, 2>>> event_pools(int device) const;
  // The stream of each block-timeline element in `elems` (0 for one the file lacks).
  std::vector<uint64_t> allocation_streams(int device, const std::vector<uint32_t>& elems) const;
  std::vector<SegmentRow> final_segments(int device) const;
  // The device's reserved bytes after each event that changed them (reserved_steps), the first
  // entry (event -1) before the first event. Empty for a device without the table's rows.
  std::vector<ReservedStep> reserved_steps(int device) const;
  std::vector<LiveBlockRow> final_live_blocks(int device) const;

  std::vector<AnnotationRow> annotations() const;                               // in file order
  std::vector<std::pair<std::string, std::string>> allocator_settings() const;  // (key, JSON text)

 private:
  struct Statements;
  EventRow checked_event(const SqliteStatement& row) const;
  std::unique_ptr<SqliteDatabase> db_;
  std::unique_ptr<Statements> statements_;  // prepared on first use
};

// The device's ReservedSeries from reserved_steps (an empty series without rows).
ReservedSeries read_reserved_series(const ElementsDbReader& db, int device);

}  // namespace snapscope
