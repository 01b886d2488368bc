#include "core/snapshot/snapshot_reducer.h"

#include <cmath>

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

std::string to_display_text(Value v, const Unpickler& up) {
  if (v.kind == Kind::String) return std::string(up.string(v));
  if (v.kind != Kind::Container || up.container(v).kind != ContainerKind::Dict) return pickle::repr(v, up);
  const auto& items = up.container(v).items;
  std::string out;
  for (size_t i = 0; i + 1 < items.size(); i += 2) {
    if (!out.empty()) out += '\n';
    out += to_display_text(items[i], up);
    out += ": ";
    out += to_display_text(items[i + 1], up);
  }
  return out;
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
      forward_frames(s.intern("forward_frames")),
      name(s.intern("name")),
      filename(s.intern("filename")),
      line(s.intern("line")),
      fx_node_op(s.intern("fx_node_op")),
      fx_node_name(s.intern("fx_node_name")),
      fx_node_target(s.intern("fx_node_target")),
      fx_original_trace(s.intern("fx_original_trace")) {}

SnapshotReducer::SnapshotReducer(Snapshot& snapshot, EventSink* sink, int only_device)
    : snapshot_(snapshot),
      keys_(snapshot.strings),
      sink_(sink),
      only_device_(only_device),
      device_traces_key_(snapshot.strings.intern("device_traces")) {}

// True for a trace entry being appended to device_traces[d], d != only_device: it is replaced
// by None instead of becoming a TraceEvent (the builder ignores that device's list). Entries
// whose list the unpickler cannot place (e.g. protocol 0 pickles) are built as usual.
bool SnapshotReducer::of_skipped_device(const pickle::Unpickler& up) const {
  if (only_device_ < 0) return false;
  const auto& slot = up.list_slot();
  return slot && slot->parent_key.kind == Kind::String && slot->parent_key.id == device_traces_key_ &&
         slot->index != static_cast<size_t>(only_device_);
}

void SnapshotReducer::finish_stream() {
  if (!sink_) return;
  if (streamed_ < events_.size()) {
    sink_->add({events_.chunk_data(streamed_ / events_.kChunkSize), events_.size() - streamed_});
    streamed_ = events_.size();
  }
  sink_->finish();
}

std::optional<Value> SnapshotReducer::reduce(const Container& container, const Unpickler& unpickler) {
  if (container.kind == ContainerKind::Dict) return reduce_dict(container, unpickler);
  if (container.kind == ContainerKind::List) return reduce_list(container);
  return std::nullopt;
}

std::optional<Value> SnapshotReducer::reduce_dict(const Container& dict, const Unpickler& up) {
  bool has_name = false;
  for (size_t i = 0; i < dict.items.size(); i += 2) {
    Value key = dict.items[i];
    if (key.kind != Kind::String) continue;
    if (key.id == keys_.action && dict.items[i + 1].kind == Kind::String) return make_event(dict, up);
    has_name |= key.id == keys_.name;
  }
  if (has_name) return make_frame(dict, up);
  return std::nullopt;
}

// A list made only of frames is a call stack; anything else stays generic.
std::optional<Value> SnapshotReducer::reduce_list(const Container& list) {
  scratch_.clear();
  for (Value item : list.items) {
    if (item.kind != Kind::Frame) return std::nullopt;
    scratch_.push_back(item.id);
  }
  return Value::handle(Kind::Stack, snapshot_.stacks.intern(scratch_));
}

std::optional<Value> SnapshotReducer::make_frame(const Container& dict, const Unpickler& up) {
  Frame frame;
  bool has_filename = false, has_line = false;
  for (size_t i = 0; i < dict.items.size(); i += 2) {
    Value key = dict.items[i], value = dict.items[i + 1];
    if (key.kind != Kind::String) return std::nullopt;
    StringId k = key.id;
    if (k == keys_.name) {
      frame.name = to_string_id(value, "frame name");
    } else if (k == keys_.filename) {
      frame.filename = to_string_id(value, "frame filename");
      has_filename = true;
    } else if (k == keys_.line) {
      frame.line = to_i64(value, "frame line");
      has_line = true;
    } else if (k == keys_.fx_node_op) {
      frame.fx_node_op = to_string_id(value, "fx_node_op");
    } else if (k == keys_.fx_node_name) {
      frame.fx_node_name = to_string_id(value, "fx_node_name");
    } else if (k == keys_.fx_node_target) {
      frame.fx_node_target = to_string_id(value, "fx_node_target");
    } else if (k == keys_.fx_original_trace) {
      frame.fx_original_trace = snapshot_.strings.intern(to_display_text(value, up));
    }
  }
  if (!has_filename || !has_line) return std::nullopt;
  return Value::handle(Kind::Frame, snapshot_.frames.intern(frame));
}

Value SnapshotReducer::make_event(const Container& dict, const Unpickler& up) {
  if (of_skipped_device(up)) return Value::none();
  TraceEvent event;
  EventExtra extra;
  device_free_.reset();
  for (size_t i = 0; i < dict.items.size(); i += 2) {
    Value key = dict.items[i];
    if (key.kind == Kind::String) set_event_field(event, extra, key.id, dict.items[i + 1], up);
  }
  // oom entries carry the device's free bytes instead of an address (model.h: TraceEvent::addr).
  if (device_free_ && (event.action == Action::Oom || event.addr == 0)) event.addr = *device_free_;
  if (extra.has_pool_id || extra.forward_frames != 0) {
    event.extra = static_cast<uint32_t>(snapshot_.event_extras.size());
    snapshot_.event_extras.push_back(extra);
  }
  if (events_.size() >= kNoIndex) throw ReduceError("too many trace events");
  events_.push_back(event);
  if (sink_ && events_.size() % events_.kChunkSize == 0) {  // a chunk is complete and never changes again
    sink_->add({events_.chunk_data(streamed_ / events_.kChunkSize), events_.kChunkSize});
    streamed_ = events_.size();
  }
  return Value::handle(Kind::Event, static_cast<uint32_t>(events_.size() - 1));
}

void SnapshotReducer::set_event_field(TraceEvent& e, EventExtra& extra, StringId k, Value v,
                                      const Unpickler& up) {
  if (k == keys_.action) {
    e.action = parse_action(up.string(v));
    if (e.action == Action::Unknown) e.unknown_action = v.id;
  } else if (k == keys_.addr) {
    e.addr = to_u64(v, "trace entry addr");
  } else if (k == keys_.device_free) {
    device_free_ = to_u64(v, "trace entry device_free");
  } else if (k == keys_.size) {
    e.size = to_u64(v, "trace entry size");
  } else if (k == keys_.stream) {
    e.stream = static_cast<uint64_t>(to_i64(v, "trace entry stream"));
  } else if (k == keys_.time_us) {
    if (v.kind == Kind::Float) {
      e.time_us = static_cast<int64_t>(std::llround(v.d));
    } else if (v.kind != Kind::None) {
      e.time_us = to_i64(v, "trace entry time_us");
    }
  } else if (k == keys_.frames) {
    e.stack = to_stack(v, "trace entry frames");
    e.has_frames = true;
  } else if (k == keys_.compile_context) {
    e.compile_context = v.kind == Kind::None ? 0 : snapshot_.strings.intern(to_display_text(v, up));
  } else if (k == keys_.user_metadata) {
    e.user_metadata = v.kind == Kind::None ? 0 : snapshot_.strings.intern(to_display_text(v, up));
  } else if (k == keys_.pool_id) {
    if (v.kind == Kind::Container && up.container(v).items.size() == 2) {
      extra.pool_id[0] = to_i64(up.container(v).items[0], "trace entry pool_id");
      extra.pool_id[1] = to_i64(up.container(v).items[1], "trace entry pool_id");
      extra.has_pool_id = true;
    } else if (v.kind == Kind::Int) {
      extra.pool_id[0] = v.i;
      extra.has_pool_id = true;
    }
  } else if (k == keys_.forward_frames) {
    extra.forward_frames = snapshot_.strings.intern(v.kind == Kind::Stack ? format_stack(snapshot_, v.id)
                                                                          : to_display_text(v, up));
  }
}

}  // namespace snapscope
