#include "core/snapshot/snapshot_builder.h"

#include <algorithm>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace snapscope {

using pickle::Container;
using pickle::ContainerKind;
using pickle::Kind;
using pickle::ReduceError;
using pickle::Unpickler;
using pickle::Value;

namespace {

constexpr int kMaxJsonDepth = 1000;
constexpr size_t kMaxJsonNodes = 10'000;  // real allocator_settings hold a few dozen
constexpr size_t kMaxKeyBytes = 256;      // a non-string key, as text

// Read access to a generic dict by key text.
class DictView {
 public:
  DictView(Value v, const Unpickler& up, const char* what) : up_(up) {
    if (v.kind != Kind::Container || up.container(v).kind != ContainerKind::Dict) {
      throw ReduceError(std::string(what) + " is not a dict");
    }
    items_ = &up.container(v).items;
  }
  // The last occurrence: Python keeps the last value of a repeated key.
  const Value* find(std::string_view key) const {
    for (size_t i = items_->size() / 2; i-- > 0;) {
      Value k = (*items_)[2 * i];
      if (k.kind == Kind::String && up_.string(k) == key) return &(*items_)[2 * i + 1];
    }
    return nullptr;
  }
  Value get_or_none(std::string_view key) const {
    const Value* v = find(key);
    return v ? *v : Value::none();
  }
  uint64_t u64(std::string_view key, const char* what) const {
    const Value* v = find(key);
    return v && v->kind != Kind::None ? to_u64(*v, what) : 0;
  }
  int64_t i64(std::string_view key, const char* what) const {
    const Value* v = find(key);
    return v && v->kind != Kind::None ? to_i64(*v, what) : 0;
  }
  const std::vector<Value>& items() const { return *items_; }

 private:
  const Unpickler& up_;
  const std::vector<Value>* items_ = nullptr;
};

// Items of a list or tuple (an EmptyList has none).
std::span<const Value> sequence(Value v, const Unpickler& up, const char* what) {
  if (v.kind == Kind::EmptyList || v.kind == Kind::None) return {};
  if (v.kind == Kind::Container) {
    const Container& c = up.container(v);
    if (c.kind == ContainerKind::List || c.kind == ContainerKind::Tuple) return c.items;
  }
  throw ReduceError(std::string(what) + " is not a list");
}

bool truthy(Value v) {
  switch (v.kind) {
    case Kind::Bool:
    case Kind::Int:
      return v.i != 0;
    case Kind::UInt:
      return v.u != 0;
    default:
      return false;
  }
}

// allocator_settings as JSON. Shared containers would expand exponentially: past kMaxJsonNodes
// values it is refused.
nlohmann::json to_json(Value v, const Unpickler& up, int depth, size_t& nodes) {
  if (depth > kMaxJsonDepth) throw ReduceError("allocator_settings nested too deeply");
  if (++nodes > kMaxJsonNodes) throw ReduceError("allocator_settings too large (over 10000 values)");
  switch (v.kind) {
    case Kind::None:
      return nullptr;
    case Kind::Bool:
      return v.i != 0;
    case Kind::Int:
      return v.i;
    case Kind::UInt:
      return v.u;
    case Kind::BigInt:
    case Kind::Float:
      return v.d;
    case Kind::String:
      return std::string(up.string(v));
    case Kind::EmptyList:
      return nlohmann::json::array();
    case Kind::Container:
      break;
    default:
      return pickle::repr(v, up);
  }
  const Container& c = up.container(v);
  if (c.kind == ContainerKind::Dict) {
    nlohmann::json obj = nlohmann::json::object();
    for (size_t i = 0; i + 1 < c.items.size(); i += 2) {
      Value k = c.items[i];
      std::string key =
          k.kind == Kind::String ? std::string(up.string(k)) : pickle::repr(k, up, kMaxKeyBytes);
      obj[key] = to_json(c.items[i + 1], up, depth + 1, nodes);
    }
    return obj;
  }
  nlohmann::json arr = nlohmann::json::array();
  for (Value item : c.items) arr.push_back(to_json(item, up, depth + 1, nodes));
  return arr;
}

BlockState parse_block_state(std::string_view s) {
  if (s == "active_allocated") return BlockState::ActiveAllocated;
  if (s == "active_pending_free") return BlockState::ActivePending;
  if (s == "inactive") return BlockState::Inactive;
  return BlockState::Unknown;
}

class Builder {
 public:
  Builder(const Unpickler& up, SnapshotReducer& reducer, const ReadOptions& options, Snapshot& snap)
      : up_(up), reducer_(reducer), options_(options), snap_(snap) {}

  void build(Value top);

 private:
  void add_segments(Value list);
  void add_segment(Value seg_value, std::optional<int64_t> device = std::nullopt);
  void add_block(Value block_value, uint64_t address);
  void add_traces(Value list);
  std::vector<uint32_t> event_indices(Value device_list, const std::string& what);
  void add_annotations(Value list);
  void add_host_memory(const Value* segments, const Value* traces);
  std::vector<Value> host_trace_lists(const Value* traces) const;
  void add_device_events(size_t device, const std::vector<uint32_t>& indices);

  const Unpickler& up_;
  SnapshotReducer& reducer_;
  const ReadOptions& options_;
  Snapshot& snap_;
};

void Builder::build(Value top) {
  if (top.kind != Kind::Container || up_.container(top).kind != ContainerKind::Dict) {
    throw ReduceError("not a PyTorch memory snapshot (the top level is not a dict)");
  }
  DictView dict(top, up_, "top level");
  for (size_t i = 0; i < dict.items().size(); i += 2) {
    Value k = dict.items()[i];
    snap_.top_level_keys.push_back(k.kind == Kind::String ? std::string(up_.string(k))
                                                          : pickle::repr(k, up_, kMaxKeyBytes));
  }
  const Value* segments = dict.find("segments");
  const Value* traces = dict.find("device_traces");
  const Value* host_segments = dict.find("host_segments");
  const Value* host_traces = dict.find("host_traces");
  if (!segments && !traces && !host_segments && !host_traces) {
    throw ReduceError("not a PyTorch memory snapshot (no 'segments' or 'device_traces' key)");
  }
  if (segments) add_segments(*segments);
  if (traces) add_traces(*traces);
  if (host_segments || host_traces) add_host_memory(host_segments, host_traces);
  if (const Value* a = dict.find("external_annotations")) add_annotations(*a);
  if (const Value* s = dict.find("allocator_settings")) {
    size_t nodes = 0;
    snap_.allocator_settings = to_json(*s, up_, 0, nodes);
  }
}

void Builder::add_segments(Value list) {
  for (Value seg : sequence(list, up_, "'segments'")) add_segment(seg);
}

void Builder::add_segment(Value seg_value, std::optional<int64_t> device) {
  DictView d(seg_value, up_, "a segment");
  Segment seg;
  seg.device = device ? *device : d.i64("device", "segment device");
  seg.address = d.u64("address", "segment address");
  seg.total_size = d.u64("total_size", "segment total_size");
  seg.allocated_size = d.u64("allocated_size", "segment allocated_size");
  seg.active_size = d.u64("active_size", "segment active_size");
  seg.requested_size = d.u64("requested_size", "segment requested_size");
  seg.stream = static_cast<uint64_t>(d.i64("stream", "segment stream"));
  seg.segment_type = to_string_id(d.get_or_none("segment_type"), "segment_type");
  if (const Value* pool = d.find("segment_pool_id")) {
    auto ids = sequence(*pool, up_, "segment_pool_id");
    for (size_t i = 0; i < ids.size() && i < 2; ++i) seg.pool_id[i] = to_i64(ids[i], "segment_pool_id");
  }
  seg.is_expandable = truthy(d.get_or_none("is_expandable"));
  seg.stack = to_stack(d.get_or_none("frames"), "segment frames");
  seg.first_block = static_cast<uint32_t>(snap_.blocks.size());
  // memory_viz ignores each block's own address: segment address + sizes of earlier blocks.
  uint64_t address = seg.address;
  for (Value b : sequence(d.get_or_none("blocks"), up_, "segment blocks")) {
    add_block(b, address);
    address += snap_.blocks.back().size;
  }
  seg.block_count = static_cast<uint32_t>(snap_.blocks.size() - seg.first_block);
  snap_.segments.push_back(seg);
}

void Builder::add_block(Value block_value, uint64_t address) {
  DictView d(block_value, up_, "a block");
  Block b;
  b.address = address;
  b.size = d.u64("size", "block size");
  b.requested_size = d.u64("requested_size", "block requested_size");
  b.raw_state = to_string_id(d.get_or_none("state"), "block state");
  b.state = parse_block_state(snap_.strings.view(b.raw_state));
  b.segment = static_cast<uint32_t>(snap_.segments.size());
  if (const Value* frames = d.find("frames")) {
    b.stack = to_stack(*frames, "block frames");
  } else {
    // Older dumps (memory_viz annotate_snapshot): frames and real size from history[0].
    auto history = sequence(d.get_or_none("history"), up_, "block history");
    if (!history.empty()) {
      DictView h0(history[0], up_, "block history entry");
      b.stack = to_stack(h0.get_or_none("frames"), "block history frames");
      if (b.requested_size == 0) b.requested_size = h0.u64("real_size", "block history real_size");
    } else if (b.requested_size == 0) {
      b.requested_size = b.size;
    }
  }
  snap_.blocks.push_back(b);
}

std::vector<uint32_t> Builder::event_indices(Value device_list, const std::string& what) {
  std::vector<uint32_t> out;
  for (Value item : sequence(device_list, up_, what.c_str())) {
    if (item.kind == Kind::EventRun) {
      for (uint32_t k = 0; k < item.aux; ++k) out.push_back(item.id + k);
    } else if (item.kind == Kind::Event) {
      out.push_back(item.id);
    } else {
      throw ReduceError(what + " holds something that is not a trace entry");
    }
  }
  return out;
}

void Builder::add_traces(Value list) {
  auto devices = sequence(list, up_, "'device_traces'");
  EventPool& pool = reducer_.events();
  snap_.device_traces.resize(devices.size());
  for (size_t d = 0; d < devices.size(); ++d) {
    // Other devices' entries were not built (SnapshotReducer): their lists hold None.
    if (options_.only_device >= 0 && static_cast<size_t>(options_.only_device) != d) continue;
    std::vector<uint32_t> indices = event_indices(devices[d], "device_traces[" + std::to_string(d) + "]");
    auto& events = snap_.device_traces[d].events;
    bool whole_pool = indices.size() == pool.size() && (indices.empty() || indices.front() == 0) &&
                      (indices.empty() || indices.back() + 1 == pool.size());
    if (whole_pool && !indices.empty()) {
      // The common single-device case: no copy. A pool in several segments is copied and freed,
      // so the event sink must let go of it first.
      if (!pool.hands_over_in_place()) reducer_.finish_stream();
      events = pool.take_all();
      continue;
    }
    add_device_events(d, indices);
  }
}

void Builder::add_device_events(size_t device, const std::vector<uint32_t>& indices) {
  const EventPool& pool = reducer_.events();
  auto& events = snap_.device_traces[device].events;
  events.reserve(indices.size());
  for (uint32_t i : indices) {
    if (i >= pool.size()) throw ReduceError("a trace entry is listed on two devices");
    events.push_back(pool[i]);
  }
}

// host_traces is one list of trace entries (the host allocator is one allocator), or, shaped
// like device_traces, a list of such lists; both are accepted, each list becoming a host device.
std::vector<Value> Builder::host_trace_lists(const Value* traces) const {
  if (!traces) return {};
  auto items = sequence(*traces, up_, "'host_traces'");
  const auto entries = std::count_if(
      items.begin(), items.end(), [](Value v) { return v.kind == Kind::Event || v.kind == Kind::EventRun; });
  if (entries == 0) return {items.begin(), items.end()};
  if (static_cast<size_t>(entries) != items.size())
    throw ReduceError("'host_traces' mixes trace entries with other values");
  return {*traces};
}

void Builder::add_host_memory(const Value* segments, const Value* traces) {
  if (snap_.device_traces.size() > static_cast<size_t>(kHostDevice)) {
    throw ReduceError("'device_traces' lists more than " + std::to_string(kHostDevice) +
                      " devices beside host memory");
  }
  const std::vector<Value> lists = host_trace_lists(traces);
  if (lists.size() > static_cast<size_t>(kMaxHostDevices)) {
    throw ReduceError("'host_traces' lists more than " + std::to_string(kMaxHostDevices) + " traces");
  }
  for (size_t k = 0; k < lists.size(); ++k) {
    const size_t device = static_cast<size_t>(kHostDevice) + k;
    if (options_.only_device >= 0 && static_cast<size_t>(options_.only_device) != device) continue;
    std::vector<uint32_t> indices = event_indices(lists[k], "host_traces[" + std::to_string(k) + "]");
    if (indices.empty()) continue;
    if (snap_.device_traces.size() <= device) snap_.device_traces.resize(device + 1);
    add_device_events(device, indices);
  }
  if (segments) {
    for (Value seg : sequence(*segments, up_, "'host_segments'")) add_segment(seg, kHostDevice);
  }
}

void Builder::add_annotations(Value list) {
  for (Value a : sequence(list, up_, "'external_annotations'")) {
    DictView d(a, up_, "an external annotation");
    Annotation ann;
    ann.stage = to_string_id(d.get_or_none("stage"), "annotation stage");
    ann.name = to_string_id(d.get_or_none("name"), "annotation name");
    ann.device = d.i64("device", "annotation device");
    if (const Value* t = d.find("time_us"); t && t->kind != Kind::None)
      ann.time_us = to_i64(*t, "annotation time_us");
    snap_.annotations.push_back(ann);
  }
}

}  // namespace

void build_snapshot(Value top, const Unpickler& unpickler, SnapshotReducer& reducer,
                    const ReadOptions& options, Snapshot& snapshot) {
  Builder(unpickler, reducer, options, snapshot).build(top);
}

}  // namespace snapscope
