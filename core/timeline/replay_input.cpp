// memory_viz element/action derivation. Mirrors, step by step, annotate_snapshot's
// free_requested+free_completed merge and process_alloc_data's phases 1 and 2
// (max_entries = all, include_private_inactive = false).
#include "core/timeline/replay_input.h"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>

#include "core/snapshot/snapshot_reader.h"
#include "core/util/address_map.h"
#include "core/util/prefault.h"

namespace snapscope {

const char* origin_name(Origin origin) {
  switch (origin) {
    case Origin::Traced:
      return "traced";
    case Origin::FreeWithoutAlloc:
      return "free_without_alloc";
    case Origin::SnapshotBlock:
      return "snapshot_block";
    case Origin::SnapshotSegment:
      return "snapshot_segment";
  }
  return "unknown";
}

bool ReplayInput::has_action_times() const {
  return std::any_of(action_time_us.begin(), action_time_us.end(),
                     [](int64_t time) { return time != kNoTime; });
}

uint32_t ReplayInput::find_ref(std::span<const ElementRef> refs, uint32_t elem) {
  const auto it = std::lower_bound(refs.begin(), refs.end(), elem,
                                   [](const ElementRef& ref, uint32_t wanted) { return ref.elem < wanted; });
  return it != refs.end() && it->elem == elem ? it->index : kNoIndex;
}

namespace {

// Whether a stored element's flag byte is 0 or 1 and its origin one of the four: read as bytes,
// since a bool holding anything else is undefined behaviour before it can be compared.
bool valid_element_bytes(const ReplayElement& element) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(&element);
  const unsigned char origin = bytes[offsetof(ReplayElement, origin)];
  const unsigned char merged_free = bytes[offsetof(ReplayElement, merged_free)];
  return origin <= static_cast<unsigned char>(Origin::SnapshotSegment) && merged_free <= 1;
}

}  // namespace

void ReplayInput::check_parts() const {
  const auto bad = [](const char* what) {
    throw std::invalid_argument(std::string("replay input: ") + what);
  };
  if (kind != TimelineKind::Blocks && kind != TimelineKind::Segments) bad("an unknown timeline kind");
  for (const ReplayElement& element : elements)
    if (!valid_element_bytes(element)) bad("an element of an unknown origin or flag");
  const size_t count = elements.size();
  for (const uint32_t elem : initial_stack)
    if (elem >= count) bad("the initial stack names a missing element");
  for (const ReplayAction& action : actions)
    if (action.elem >= count) bad("an action names a missing element");
  action_time_us.check_parts();
  if (!action_time_us.empty() && action_time_us.size() != actions.size())
    bad("action times of the wrong size");
  for (const auto* refs : {&element_blocks, &element_segments}) {
    for (size_t i = 0; i < refs->size(); ++i) {
      if ((*refs)[i].elem >= count || (i > 0 && (*refs)[i - 1].elem > (*refs)[i].elem))
        bad("element references out of range or order");
    }
  }
}

ActionEventWalk::ActionEventWalk(const ReplayInput& input) : input_(input), seen_(input.elements.size()) {
  for (const uint32_t elem : input.initial_stack) seen_[elem] = true;
}

EventIndex ActionEventWalk::next(const ReplayAction& action) {
  const ReplayElement& element = input_.elements[action.elem];
  if (seen_[action.elem]) return element.free_event;
  seen_[action.elem] = true;
  return element.alloc_event;
}

namespace {

// Builds one ReplayInput; state mirrors process_alloc_data's locals.
class ReplayDeriver {
 public:
  ReplayDeriver(const Snapshot& snapshot, int device, TimelineKind kind)
      : snapshot_(snapshot), device_(device), kind_(kind) {
    out_.device = device;
    out_.kind = kind;
  }

  ReplayInput run() {
    const std::vector<TraceEvent>& events = device_events();
    if (events.size() > static_cast<size_t>(kMaxEventIndex)) {
      throw InputError("device " + std::to_string(device_) + " has " + std::to_string(events.size()) +
                       " trace events; at most " + std::to_string(kMaxEventIndex) + " are supported");
    }
    timed_ =
        std::any_of(events.begin(), events.end(), [](const TraceEvent& e) { return e.time_us != kNoTime; });
    reserve_for(events);
    scan_trace(events);
    add_snapshot_elements();
    build_initial_stack();
    return std::move(out_);
  }

 private:
  const std::vector<TraceEvent>& device_events() const {
    static const std::vector<TraceEvent> kEmpty;
    const auto index = static_cast<size_t>(device_);
    if (device_ < 0 || index >= snapshot_.device_traces.size()) return kEmpty;
    return snapshot_.device_traces[index].events;
  }

  Action alloc_action() const { return kind_ == TimelineKind::Blocks ? Action::Alloc : Action::SegmentAlloc; }
  Action free_action() const {
    return kind_ == TimelineKind::Blocks ? Action::FreeCompleted : Action::SegmentFree;
  }

  // Upper bounds, so the vectors never reallocate (a copy and a 1.5-2x peak at millions of
  // elements); capacity that is never written costs address space, not memory. Each event is
  // at most one action and one element: bounds without a pass over hundreds of MB of events.
  void reserve_for(const std::vector<TraceEvent>& events) {
    out_.actions.reserve(events.size() + 1);
    out_.elements.reserve(events.size() + snapshot_.blocks.size() + snapshot_.segments.size());
    if (timed_) out_.action_time_us.reserve(events.size() + 1);
    // Written front to back once: huge pages spare a page fault per 4 KiB (a third of this step).
    advise_huge_pages(out_.actions);
    advise_huge_pages(out_.elements);
  }

  // An action and its time: that of the event it is met at, which is the element's alloc_event
  // or free_event (ActionEventWalk), read here in trace order instead of by a second walk.
  void push_action(uint32_t elem, int64_t time_us) {
    out_.actions.push_back({elem});
    if (timed_) out_.action_time_us.push_back(time_us);
  }

  uint32_t push_element(const ReplayElement& element) {
    out_.elements.push_back(element);
    return static_cast<uint32_t>(out_.elements.size() - 1);
  }

  void scan_trace(const std::vector<TraceEvent>& events) {
    // annotate_snapshot: a free_completed directly after (in the kept trace) a free_requested of
    // the same address is dropped and the request becomes a "free". `open_request` is the last
    // kept event while it is still an unmerged free_requested.
    EventIndex open_request = -1;
    for (size_t i = 0; i < events.size(); ++i) {
      const TraceEvent& event = events[i];
      const auto index = static_cast<EventIndex>(i);  // run() checked the count
      bool merged = false;
      if (event.action() == Action::FreeCompleted && open_request >= 0 &&
          events[static_cast<size_t>(open_request)].addr == event.addr) {
        merged = true;
      }
      if (event.action() == alloc_action()) {
        on_alloc(event, index);
      } else if (event.action() == free_action()) {
        const TraceEvent& source = merged ? events[static_cast<size_t>(open_request)] : event;
        on_free(source, index, event.time_us, merged && kind_ == TimelineKind::Blocks);
      }
      if (!merged)
        open_request = event.action() == Action::FreeRequested ? index : -1;
      else
        open_request = -1;  // the kept event is now a "free", no longer a request
    }
  }

  void on_alloc(const TraceEvent& event, EventIndex index) {
    ReplayElement element;
    element.addr = event.addr;
    element.size = event.size;
    element.alloc_event = index;
    element.stack = event.stack;
    const uint32_t id = push_element(element);
    addr_to_alloc_.insert_or_assign(event.addr, id);  // overwrites: a re-used address without a free
    push_action(id, event.time_us);
  }

  // `source` is the event memory_viz keeps: the free_requested when merged, else the free itself;
  // the free's own index and time are the action's.
  void on_free(const TraceEvent& source, EventIndex index, int64_t time_us, bool merged) {
    if (const std::optional<uint32_t> alloc = addr_to_alloc_.erase(source.addr)) {
      out_.elements[*alloc].free_event = index;
      push_action(*alloc, time_us);
      return;
    }
    ReplayElement element;
    element.addr = source.addr;
    element.size = source.size;
    element.free_event = index;
    element.stack = source.stack;
    element.origin = Origin::FreeWithoutAlloc;
    element.merged_free = merged;
    const uint32_t id = push_element(element);
    initially_allocated_.push_back(id);
    push_action(id, time_us);
  }

  bool live_at_trace_end(uint64_t addr) const { return addr_to_alloc_.contains(addr); }

  void add_snapshot_elements() {
    for (size_t s = 0; s < snapshot_.segments.size(); ++s) {
      const Segment& segment = snapshot_.segments[s];
      if (segment.device != device_) continue;
      if (kind_ == TimelineKind::Segments) {
        add_snapshot_segment(segment, static_cast<uint32_t>(s));
      } else {
        add_snapshot_blocks(segment, static_cast<uint32_t>(s));
      }
    }
  }

  void add_snapshot_segment(const Segment& segment, uint32_t index) {
    if (live_at_trace_end(segment.address)) return;
    ReplayElement element;
    element.addr = segment.address;
    element.size = segment.total_size;
    element.stack = 0;  // memory_viz gives snapshot segments no frames; Segment::stack has them
    element.origin = Origin::SnapshotSegment;
    const uint32_t elem = push_element(element);
    out_.element_segments.push_back({elem, index});
    initially_allocated_.push_back(elem);
  }

  void add_snapshot_blocks(const Segment& segment, uint32_t index) {
    for (uint32_t b = segment.first_block; b < segment.first_block + segment.block_count; ++b) {
      const Block& block = snapshot_.blocks[b];
      if (block.state != BlockState::ActiveAllocated || live_at_trace_end(block.address)) continue;
      ReplayElement element;
      element.addr = block.address;
      element.size = block.requested_size;
      element.stack = block.stack;
      element.origin = Origin::SnapshotBlock;
      const uint32_t elem = push_element(element);
      out_.element_blocks.push_back({elem, b});
      out_.element_segments.push_back({elem, index});
      initially_allocated_.push_back(elem);
    }
  }

  // memory_viz reverses initially_allocated; with no actions it promotes the last of the
  // reversed list (the first element added) to a single alloc at t = 0.
  void build_initial_stack() {
    Column<uint32_t>& stack = out_.initial_stack;
    stack.assign(initially_allocated_.rbegin(), initially_allocated_.rend());
    if (out_.actions.empty() && !stack.empty()) {
      push_action(stack.back(), kNoTime);  // a snapshot element: no alloc event
      stack.pop_back();
      out_.synthetic_action = true;
    }
  }

  const Snapshot& snapshot_;
  int device_;
  TimelineKind kind_;
  bool timed_ = false;  // some event has a time_us: then every action gets one
  ReplayInput out_;
  AddressMap addr_to_alloc_;                   // live trace element per address
  std::vector<uint32_t> initially_allocated_;  // in memory_viz's (unreversed) order
};

}  // namespace

ReplayInput derive_replay_input(const Snapshot& snapshot, int device, TimelineKind kind) {
  return ReplayDeriver(snapshot, device, kind).run();
}

}  // namespace snapscope
