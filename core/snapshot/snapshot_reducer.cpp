#include "core/snapshot/snapshot_reducer.h"

#include <array>
#include <cctype>
#include <cmath>
#include <deque>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace snapscope {

using pickle::Container;
using pickle::ContainerKind;
using pickle::Kind;
using pickle::ReduceError;
using pickle::Unpickler;
using pickle::Value;

namespace {

[[noreturn]] void wrong_type(const char* what, const char* expected) {
  throw ReduceError(std::string(what) + " is not " + expected);
}

}  // namespace

std::string format_stack(const Snapshot& snapshot, StackId stack) {
  std::string out;
  for (FrameId id : snapshot.stacks.frames(stack)) {
    const Frame& f = snapshot.frames.get(id);
    if (!out.empty()) out += '\n';
    out += snapshot.strings.view(f.filename);
    out += ':';
    out += std::to_string(f.line);
    out += ':';
    out += snapshot.strings.view(f.name);
  }
  return out;
}

uint64_t to_u64(Value v, const char* what) {
  switch (v.kind) {
    case Kind::Int:
    case Kind::Bool:
      if (v.i < 0) wrong_type(what, "a non-negative integer");
      return static_cast<uint64_t>(v.i);
    case Kind::UInt:
      return v.u;
    default:
      wrong_type(what, "an integer");
  }
}

int64_t to_i64(Value v, const char* what) {
  switch (v.kind) {
    case Kind::Int:
    case Kind::Bool:
      return v.i;
    case Kind::UInt:
      return static_cast<int64_t>(v.u);  // wraps like a C++ int64 would
    default:
      wrong_type(what, "an integer");
  }
}

StackId to_stack(Value v, const char* what) {
  if (v.kind == Kind::Stack) return v.id;
  if (v.kind == Kind::EmptyList || v.kind == Kind::None) return 0;
  wrong_type(what, "a list of frames");
}

StringId to_string_id(Value v, const char* what) {
  if (v.kind == Kind::String) return v.id;
  if (v.kind == Kind::None) return 0;
  wrong_type(what, "a string");
}

// Appends `v` as display text ("key: value" lines for dicts) until `out` holds `limit` bytes:
// nested shared dicts can describe 2^n lines in n bytes of pickle.
void append_display_text(std::string& out, Value v, const Unpickler& up, size_t limit) {
  if (out.size() >= limit) return;
  if (v.kind == Kind::String) {
    out += up.string(v);
    return;
  }
  if (v.kind != Kind::Container || up.container(v).kind != ContainerKind::Dict) {
    out += pickle::repr(v, up, limit - out.size());
    return;
  }
  const auto& items = up.container(v).items;
  const size_t start = out.size();
  for (size_t i = 0; i + 1 < items.size() && out.size() < limit; i += 2) {
    if (out.size() > start) out += '\n';
    append_display_text(out, items[i], up, limit);
    out += ": ";
    append_display_text(out, items[i + 1], up, limit);
  }
}

std::string to_display_text(Value v, const Unpickler& up) {
  std::string out;
  append_display_text(out, v, up, pickle::kDefaultReprBytes);
  if (out.size() > pickle::kDefaultReprBytes) {
    out.resize(pickle::kDefaultReprBytes);
    out += "...";
  }
  return out;
}

namespace {

// One `  File "model.py", line 12, in forward` line of a Python traceback as "file:line:function"
// (format_stack's form), or nothing for another line (the source line under it).
std::optional<std::string> traceback_frame(std::string_view line) {
  const size_t file = line.find("File \"");
  if (file == std::string_view::npos) return std::nullopt;
  const size_t file_end = line.find("\", line ", file + 6);
  if (file_end == std::string_view::npos) return std::nullopt;
  const size_t number = file_end + 8;
  const size_t number_end = line.find(", in ", number);
  if (number_end == std::string_view::npos || number_end == number) return std::nullopt;
  const std::string_view digits = line.substr(number, number_end - number);
  if (digits.size() > 18 || digits.find_first_not_of("0123456789") != std::string_view::npos)
    return std::nullopt;
  return std::string(line.substr(file + 6, file_end - file - 6)) + ':' + std::string(digits) + ':' +
         std::string(line.substr(number_end + 5));
}

// A traceback's frames, innermost first as format_stack writes them (a traceback lists the
// outermost call first); none when the text is not a traceback.
std::optional<std::string> traceback_frames(std::string_view text) {
  std::vector<std::string> frames;
  while (!text.empty()) {
    const size_t newline = text.find('\n');
    if (auto frame = traceback_frame(text.substr(0, newline))) frames.push_back(std::move(*frame));
    text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
  }
  if (frames.empty()) return std::nullopt;
  std::string out;
  for (auto frame = frames.rbegin(); frame != frames.rend(); ++frame) {
    if (!out.empty()) out += '\n';
    out += *frame;
  }
  return out;
}

}  // namespace

// forward_frames other than a list of frames (format_stack): a list of traceback strings, as
// memory_viz joins them, becomes frames when it reads as a traceback and stays joined text otherwise.
std::string forward_frames_text(Value v, const Unpickler& up) {
  if (v.kind != Kind::Container || up.container(v).kind == ContainerKind::Dict) return to_display_text(v, up);
  std::string joined;
  for (const Value item : up.container(v).items) {
    if (item.kind != Kind::String) return to_display_text(v, up);
    if (joined.size() < pickle::kDefaultReprBytes) joined += up.string(item);
  }
  if (auto frames = traceback_frames(joined)) return *frames;
  while (!joined.empty() && std::isspace(static_cast<unsigned char>(joined.back()))) joined.pop_back();
  return joined;
}

SnapshotKeys::SnapshotKeys(StringTable& s)
    : action(s.intern("action")),
      addr(s.intern("addr")),
      size(s.intern("size")),
      stream(s.intern("stream")),
      time_us(s.intern("time_us")),
      frames(s.intern("frames")),
      compile_context(s.intern("compile_context")),
      user_metadata(s.intern("user_metadata")),
      device_free(s.intern("device_free")),
      pool_id(s.intern("pool_id")),
      segment_pool_id(s.intern("segment_pool_id")),
      forward_frames(s.intern("forward_frames")),
      name(s.intern("name")),
      filename(s.intern("filename")),
      line(s.intern("line")),
      fx_node_op(s.intern("fx_node_op")),
      fx_node_name(s.intern("fx_node_name")),
      fx_node_target(s.intern("fx_node_target")),
      fx_original_trace(s.intern("fx_original_trace")) {}

SnapshotReducer::SnapshotReducer(Snapshot& snapshot, EventSink* sink, int only_device, size_t expected_events)
    : snapshot_(snapshot),
      keys_(snapshot.strings),
      events_(expected_events),
      sink_(sink),
      only_device_(only_device),
      device_traces_key_(snapshot.strings.intern("device_traces")) {
  index_event_keys();
}

// True for a trace entry being appended to device_traces[d], d != only_device: it is replaced
// by None instead of becoming a TraceEvent (the builder ignores that device's list). Entries
// whose list the unpickler cannot place (e.g. protocol 0 pickles) are built as usual.
bool SnapshotReducer::of_skipped_device(const pickle::Unpickler& up) const {
  return chunk_ == nullptr && skips_device(up.list_slot());  // a chunk's entries: decided when merged
}

bool SnapshotReducer::skips_device(const std::optional<pickle::Unpickler::ListSlot>& slot) const {
  if (only_device_ < 0) return false;
  return slot && slot->parent_key.kind == Kind::String && slot->parent_key.id == device_traces_key_ &&
         slot->index != static_cast<size_t>(only_device_);
}

void SnapshotReducer::end_stream() {
  if (!sink_ || streamed_ >= events_.size()) return;
  hand_to_sink(events_.size() - streamed_);
}

void SnapshotReducer::finish_stream() {
  if (!sink_ || stream_closed_) return;
  stream_closed_ = true;
  sink_->finish();
}

void SnapshotReducer::close_stream() {
  if (!sink_ || stream_closed_) return;
  if (streamed_ > 0 && events_.empty()) {  // take_all() moved the pool's only segment
    stream_closed_ = true;
    sink_->finish_keeping_batches();
    return;
  }
  finish_stream();
}

Value SnapshotReducer::reduce(ContainerKind kind, Items items, const Unpickler& unpickler) {
  if (kind == ContainerKind::Dict) return reduce_dict(items, unpickler);
  if (kind == ContainerKind::List) return reduce_list(items);
  return ContainerReducer::keep();
}

namespace {

// Python keeps the last value of a repeated key. Returns, for each of `keys`, the value of its
// last occurrence in `dict` (nullptr when absent); one pass, so a huge dict costs O(items).
template <size_t N>
std::array<const Value*, N> last_values(std::span<const Value> dict, const std::array<StringId, N>& keys) {
  std::array<const Value*, N> out{};
  for (size_t i = 0; i + 1 < dict.size(); i += 2) {
    Value key = dict[i];
    if (key.kind != Kind::String) continue;
    for (size_t f = 0; f < N; ++f) {
      if (key.id == keys[f]) {
        out[f] = &dict[i + 1];
        break;
      }
    }
  }
  return out;
}

enum EventField : size_t {
  kAction,
  kAddr,
  kDeviceFree,
  kSize,
  kStream,
  kTimeUs,
  kFrames,
  kCompileContext,
  kUserMetadata,
  kPoolId,
  kSegmentPoolId,
  kForwardFrames,
  kEventFieldCount
};

enum FrameField : size_t {
  kName,
  kFilename,
  kLine,
  kFxNodeOp,
  kFxNodeName,
  kFxNodeTarget,
  kFxOriginalTrace,
  kFrameFieldCount
};

std::array<StringId, kEventFieldCount> event_keys(const SnapshotKeys& k) {
  return {k.action,        k.addr,    k.device_free,     k.size,
          k.stream,        k.time_us, k.frames,          k.compile_context,
          k.user_metadata, k.pool_id, k.segment_pool_id, k.forward_frames};
}

std::array<StringId, kFrameFieldCount> frame_keys(const SnapshotKeys& k) {
  return {k.name, k.filename, k.line, k.fx_node_op, k.fx_node_name, k.fx_node_target, k.fx_original_trace};
}

// last_values() for a trace entry, through `field_of_key` (see index_event_keys): one load per
// key instead of a compare per field, for millions of entries.
// A trace entry's values by field, the last one of each. A mask says which are set, so that
// nothing is cleared per entry (clearing the pointers took a `rep stos`, slow to start).
class EventFieldValues {
 public:
  const Value* operator[](size_t field) const { return (set_ >> field) & 1 ? values_[field] : nullptr; }
  void set(size_t field, const Value* value) {
    values_[field] = value;
    set_ |= uint32_t{1} << field;
  }

 private:
  std::array<const Value*, kEventFieldCount> values_;
  uint32_t set_ = 0;
};
static_assert(kEventFieldCount <= 32);

EventFieldValues last_event_values(std::span<const Value> dict, const std::vector<uint8_t>& field_of_key) {
  EventFieldValues out;
  for (size_t i = 0; i + 1 < dict.size(); i += 2) {
    const Value key = dict[i];
    if (key.kind != Kind::String || key.id >= field_of_key.size()) continue;
    const uint8_t field = field_of_key[key.id];
    if (field < kEventFieldCount) out.set(field, &dict[i + 1]);
  }
  return out;
}

bool has_non_string_key(std::span<const Value> dict) {
  for (size_t i = 0; i + 1 < dict.size(); i += 2) {
    if (dict[i].kind != Kind::String) return true;
  }
  return false;
}

StringId optional_string(const Value* v, const char* what) { return v ? to_string_id(*v, what) : 0; }

int64_t to_time_us(Value v) {
  if (v.kind == Kind::Float) return static_cast<int64_t>(std::llround(v.d));
  return to_i64(v, "trace entry time_us");
}

}  // namespace

// The keys were interned first, so their ids are small and the table short.
void SnapshotReducer::index_event_keys() {
  const auto keys = event_keys(keys_);
  event_field_of_key_.assign(*std::max_element(keys.begin(), keys.end()) + size_t{1}, kEventFieldCount);
  for (size_t field = 0; field < keys.size(); ++field)
    event_field_of_key_[keys[field]] = static_cast<uint8_t>(field);
}

Value SnapshotReducer::reduce_dict(Items dict, const Unpickler& up) {
  if (chunk_) refuse_in_chunk(dict);
  const auto action = last_values(dict, std::array<StringId, 2>{keys_.action, keys_.name});
  if (action[0] && action[0]->kind == Kind::String) return make_event(dict, up);
  if (action[1]) return make_frame(dict, up);
  return ContainerReducer::keep();
}

// A trace entry: its events must be added in the order the entries' list gets them.
bool SnapshotReducer::replaces_batch_item(Items items) const {
  const auto action = last_values(items, std::array<StringId, 1>{keys_.action});
  return action[0] && action[0]->kind == Kind::String;
}

// Frames lists and frames, as reduce() makes them, where that only interns: not a frame whose
// trace is made into new text (reduce() of its list would intern that text later, after
// strings read in between), nor anything with events.
Value SnapshotReducer::reduce_inner(ContainerKind kind, Items items, const Unpickler& up) {
  if (kind == ContainerKind::List) return reduce_list(items);
  if (kind != ContainerKind::Dict) return ContainerReducer::keep();
  const auto v =
      last_values(items, std::array<StringId, 3>{keys_.action, keys_.name, keys_.fx_original_trace});
  if ((v[0] && v[0]->kind == Kind::String) || !v[1]) return ContainerReducer::keep();
  if (v[2] && v[2]->kind != Kind::String) return ContainerReducer::keep();
  return make_frame(items, up);
}

// A list made only of frames is a call stack; anything else stays generic. A chunk parser
// takes a reference back before its chunk for a frame (checked when the chunk is merged).
Value SnapshotReducer::reduce_list(Items list) {
  scratch_.clear();
  for (Value item : list) {
    if (item.kind == Kind::Frame) {
      scratch_.push_back(item.id);
    } else if (item.kind == Kind::External && chunk_) {
      scratch_.push_back(ChunkEvents::kExternal | item.id);
    } else {
      return ContainerReducer::keep();
    }
  }
  return Value::handle(Kind::Stack, snapshot_.stacks.intern(scratch_));
}

// A chunk parser reads a dict only when every key is known (a key from before the chunk that
// is no string there would be one here) and leaves text made of other values to the whole
// file's parse: both need values it does not have.
void SnapshotReducer::refuse_in_chunk(Items dict) const {
  for (size_t i = 0; i + 1 < dict.size(); i += 2) {
    if (dict[i].kind == Kind::External) throw ReduceError("a key from before the chunk");
  }
}

StackId SnapshotReducer::stack_of(Value frames) const {
  if (frames.kind == Kind::External && chunk_) return ChunkEvents::kExternal | frames.id;
  return to_stack(frames, "trace entry frames");
}

Value SnapshotReducer::make_frame(Items dict, const Unpickler& up) {
  if (has_non_string_key(dict)) return ContainerReducer::keep();
  const auto v = last_values(dict, frame_keys(keys_));
  if (!v[kFilename] || !v[kLine]) return ContainerReducer::keep();
  Frame frame;
  frame.name = optional_string(v[kName], "frame name");
  frame.filename = to_string_id(*v[kFilename], "frame filename");
  frame.line = to_i64(*v[kLine], "frame line");
  frame.fx_node_op = optional_string(v[kFxNodeOp], "fx_node_op");
  frame.fx_node_name = optional_string(v[kFxNodeName], "fx_node_name");
  frame.fx_node_target = optional_string(v[kFxNodeTarget], "fx_node_target");
  if (v[kFxOriginalTrace]) {
    if (chunk_ && v[kFxOriginalTrace]->kind != Kind::String)
      throw ReduceError("a frame's trace needs the whole file");
    frame.fx_original_trace = snapshot_.strings.intern(to_display_text(*v[kFxOriginalTrace], up));
  }
  return Value::handle(Kind::Frame, snapshot_.frames.intern(frame));
}

// add_event, inlined into make_event: called there, the event (32 bytes, written field by
// field) was copied onto the stack for the call in 16-byte loads that waited on those stores.
[[gnu::always_inline]] inline uint32_t SnapshotReducer::append_event(TraceEvent event, EventExtra extra,
                                                                     const RareEventFields& rare) {
  if (rare.any()) extra.rare = add_rare_fields(rare);
  if (extra.any() || extra.stream >= TraceEvent::kLinkLimit) {
    event.link_extra(add_extra(extra));
  } else {
    event.link_stream(extra.stream);
  }
  if (events_.size() >= kNoIndex) throw ReduceError("too many trace events");
  events_.push_back(event);
  if (sink_ && events_.size() % EventPool::kBatch == 0)
    hand_to_sink(EventPool::kBatch);  // complete: never changes again
  return static_cast<uint32_t>(events_.size() - 1);
}

Value SnapshotReducer::make_event(Items dict, const Unpickler& up) {
  if (of_skipped_device(up)) return Value::none();
  TraceEvent event;
  StreamId stream = 0;
  RareEventFields rare;
  std::optional<uint64_t> device_free;
  const auto v = last_event_values(dict, event_field_of_key_);
  event.set_action(action_named(v[kAction]->id, up));  // reduce_dict checked: a string
  if (event.action() == Action::Unknown) rare.unknown_action = v[kAction]->id;
  if (v[kAddr]) event.addr = to_u64(*v[kAddr], "trace entry addr");
  if (v[kDeviceFree]) device_free = to_u64(*v[kDeviceFree], "trace entry device_free");
  if (v[kSize]) event.size = to_u64(*v[kSize], "trace entry size");
  if (v[kStream])
    stream = snapshot_.streams.intern(static_cast<uint64_t>(to_i64(*v[kStream], "trace entry stream")));
  if (chunk_) {
    for (const Value* text :
         {v[kCompileContext], v[kUserMetadata], v[kForwardFrames], v[kPoolId], v[kSegmentPoolId]}) {
      const bool plain = text == nullptr || text->kind == Kind::String || text->kind == Kind::None ||
                         text->kind == Kind::Int || (text == v[kForwardFrames] && text->kind == Kind::Stack);
      if (!plain) throw ReduceError("an entry's text or pool needs the whole file");
    }
    if (v[kForwardFrames] && v[kForwardFrames]->kind == Kind::Stack) {
      for (FrameId frame : snapshot_.stacks.frames(v[kForwardFrames]->id)) {
        if (frame & ChunkEvents::kExternal) throw ReduceError("forward frames from before the chunk");
      }
    }
  }
  if (v[kTimeUs] && v[kTimeUs]->kind != Kind::None) event.time_us = to_time_us(*v[kTimeUs]);  // else kNoTime
  if (v[kFrames]) {
    event.stack = stack_of(*v[kFrames]);
    event.set_has_frames(true);
  }
  // Made whole from scalars, not field by field in memory: passed on in registers, an extra
  // written in 4-byte stores was read back in 8-byte loads that waited on every one of them.
  const EventExtra extra{optional_text(v[kCompileContext], up), optional_text(v[kUserMetadata], up), kNoIndex,
                         stream};
  // memory_viz reads an element's pool as `segment_pool_id`; PyTorch's trace entries say `pool_id`.
  if (v[kPoolId]) {
    set_pool_id(rare, *v[kPoolId], up);
  } else if (v[kSegmentPoolId]) {
    set_pool_id(rare, *v[kSegmentPoolId], up);
  }
  if (v[kForwardFrames]) {
    const Value f = *v[kForwardFrames];
    rare.forward_frames = snapshot_.strings.intern(f.kind == Kind::Stack ? format_stack(snapshot_, f.id)
                                                                         : forward_frames_text(f, up));
  }
  // oom entries carry the device's free bytes instead of an address (model.h: TraceEvent::addr).
  if (device_free && (event.action() == Action::Oom || event.addr == 0)) event.addr = *device_free;
  if (chunk_) return collect(event, extra, rare);
  return Value::handle(Kind::Event, append_event(event, extra, rare));
}

Action SnapshotReducer::action_named(StringId text, const Unpickler& up) {
  KnownAction& known = known_actions_[text % known_actions_.size()];
  if (!known.known || known.text != text) known = {text, parse_action(up.strings().view(text)), true};
  return known.action;
}

uint32_t SnapshotReducer::add_event(TraceEvent event, EventExtra extra, const RareEventFields& rare) {
  return append_event(event, extra, rare);
}

Value SnapshotReducer::collect(TraceEvent event, EventExtra extra, const RareEventFields& rare) {
  if (extra.stream >= TraceEvent::kLinkLimit || chunk_->events.size() >= ChunkEvents::kExternal)
    throw ReduceError("too many streams or entries for a chunk");
  event.link_stream(extra.stream);
  if (extra.any() || rare.any()) {
    extra.stream = 0;
    chunk_->sides.push_back({static_cast<uint32_t>(chunk_->events.size()), extra, rare});
  }
  chunk_->events.push_back(event);
  return Value::handle(Kind::Event, static_cast<uint32_t>(chunk_->events.size() - 1));
}

// Runs of events that share a pool id (a CUDA graph's) share one entry. Each new entry makes a
// new EventExtra, so add_extra()'s limit bounds these too.
uint32_t SnapshotReducer::add_rare_fields(const RareEventFields& rare) {
  std::vector<RareEventFields>& all = snapshot_.rare_event_fields;
  if (!all.empty() && all.back() == rare) return static_cast<uint32_t>(all.size() - 1);
  all.push_back(rare);
  return static_cast<uint32_t>(all.size() - 1);
}

// Runs of events with equal extras (a compile context on every event) share one, but not
// across batches: a batch hands the sink only its own extras.
uint32_t SnapshotReducer::add_extra(const EventExtra& extra) {
  std::deque<EventExtra>& all = snapshot_.event_extras;
  if (all.size() > extras_handed_ && all.back() == extra) return static_cast<uint32_t>(all.size() - 1);
  if (all.size() >= max_event_extras_) {
    throw ReduceError("more than " + std::to_string(max_event_extras_) +
                      " runs of trace entries with a compile context, user metadata or other fields "
                      "kept outside the entry");
  }
  all.push_back(extra);
  return static_cast<uint32_t>(all.size() - 1);
}

StringId SnapshotReducer::optional_text(const Value* v, const Unpickler& up) {
  if (!v || v->kind == Kind::None) return 0;
  // A string short enough to show whole is its own display text, and the unpickler interned it
  // already, into the snapshot's table: its id is the one intern() would give, without hashing
  // it again (a compile_context of "N/A" on every trace entry).
  if (v->kind == Kind::String && &up.strings() == &snapshot_.strings &&
      up.string(*v).size() <= pickle::kDefaultReprBytes)
    return v->id;
  return snapshot_.strings.intern(to_display_text(*v, up));
}

void SnapshotReducer::set_pool_id(RareEventFields& rare, Value v, const Unpickler& up) {
  if (v.kind == Kind::Container && up.container(v).items.size() == 2) {
    rare.pool_id[0] = to_i64(up.container(v).items[0], "trace entry pool_id");
    rare.pool_id[1] = to_i64(up.container(v).items[1], "trace entry pool_id");
    rare.has_pool_id = true;
  } else if (v.kind == Kind::Int) {
    rare.pool_id[0] = v.i;
    rare.has_pool_id = true;
  }
}

// The sink's copy of the side tables' rows added since the last batch: the events of
// [streamed_, streamed_ + count) use no others that the sink has not seen.
void SnapshotReducer::hand_to_sink(size_t count) {
  EventBatch batch;
  batch.events = events_.span(streamed_, count);
  const std::span<const uint64_t> streams = snapshot_.streams.values();
  batch.new_streams.assign(streams.begin() + static_cast<std::ptrdiff_t>(streams_handed_), streams.end());
  batch.extras.assign(snapshot_.event_extras.begin() + static_cast<std::ptrdiff_t>(extras_handed_),
                      snapshot_.event_extras.end());
  batch.first_extra = static_cast<uint32_t>(extras_handed_);
  streams_handed_ = streams.size();
  extras_handed_ = snapshot_.event_extras.size();
  streamed_ += count;
  sink_->add(std::move(batch));
}

}  // namespace snapscope
