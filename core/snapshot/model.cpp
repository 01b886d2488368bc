#include "core/snapshot/model.h"

#include <algorithm>
#include <array>
#include <charconv>

namespace snapscope {

namespace {

uint64_t mix(uint64_t h, uint64_t v) {
  // boost::hash_combine-style mixing, 64-bit.
  return h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2));
}

constexpr std::array<std::string_view, 10> kActionNames = {
    "alloc",       "free_requested", "free_completed", "segment_alloc", "segment_free",
    "segment_map", "segment_unmap",  "snapshot",       "oom",           "unknown"};

}  // namespace

// ---------------------------------------------------------------- FrameTable

size_t FrameTable::Hash::operator()(const Frame& f) const {
  uint64_t h = f.name;
  h = mix(h, f.filename);
  h = mix(h, static_cast<uint64_t>(f.line));
  h = mix(h, f.fx_node_op);
  h = mix(h, f.fx_node_name);
  h = mix(h, f.fx_node_target);
  h = mix(h, f.fx_original_trace);
  return static_cast<size_t>(h);
}

FrameId FrameTable::intern(const Frame& frame) {
  auto [it, inserted] = index_.try_emplace(frame, static_cast<FrameId>(frames_.size()));
  if (inserted) frames_.push_back(frame);
  return it->second;
}

// ---------------------------------------------------------------- StackTable

StackTable::StackTable() : starts_{0, 0}, slots_(1024) {}  // id 0: the empty stack

// Two frame ids per multiply: a trace event's stack is dozens of frames, hashed once per event.
uint64_t StackTable::hash(std::span<const FrameId> frames) {
  constexpr uint64_t kOdd = 0x9e3779b97f4a7c15ull;
  uint64_t h = frames.size() * kOdd;
  size_t i = 0;
  for (; i + 2 <= frames.size(); i += 2) h = (h ^ (frames[i] | uint64_t{frames[i + 1]} << 32)) * kOdd;
  if (i < frames.size()) h = (h ^ frames[i]) * kOdd;
  return h ^ (h >> 29);
}

void StackTable::insert_slot(uint64_t hash, StackId id) {
  const size_t mask = slots_.size() - 1;
  size_t at = hash & mask;
  while (slots_[at].id != kEmptySlot) at = (at + 1) & mask;
  slots_[at] = {hash, id};
}

StackId StackTable::intern(std::span<const FrameId> frames) {
  if (frames.empty()) return 0;
  const uint64_t h = hash(frames);
  const size_t mask = slots_.size() - 1;
  for (size_t at = h & mask; slots_[at].id != kEmptySlot; at = (at + 1) & mask) {
    if (slots_[at].hash != h) continue;
    auto existing = this->frames(slots_[at].id);
    if (std::equal(existing.begin(), existing.end(), frames.begin(), frames.end())) return slots_[at].id;
  }
  auto id = static_cast<StackId>(size());
  data_.insert(data_.end(), frames.begin(), frames.end());
  starts_.push_back(data_.size());
  if (2 * (size() - 1) > slots_.size()) double_slots();  // size() - 1: the stacks in slots_
  insert_slot(h, id);
  return id;
}

void StackTable::double_slots() {
  std::vector<Slot> old(slots_.size() * 2);
  old.swap(slots_);
  for (const Slot& slot : old) {
    if (slot.id != kEmptySlot) insert_slot(slot.hash, slot.id);
  }
}

std::span<const FrameId> StackTable::frames(StackId id) const {
  return std::span<const FrameId>(data_).subspan(starts_.at(id), starts_.at(id + 1) - starts_[id]);
}

// ---------------------------------------------------------------- enums

std::string_view action_name(Action action) { return kActionNames[static_cast<size_t>(action)]; }

Action parse_action(std::string_view name) {
  for (size_t i = 0; i + 1 < kActionNames.size(); ++i) {
    if (kActionNames[i] == name) return static_cast<Action>(i);
  }
  return Action::Unknown;
}

std::string_view block_state_name(BlockState state) {
  switch (state) {
    case BlockState::ActiveAllocated:
      return "active_allocated";
    case BlockState::ActivePending:
      return "active_pending_free";
    case BlockState::Inactive:
      return "inactive";
    case BlockState::Unknown:
      break;
  }
  return "unknown";
}

// ---------------------------------------------------------------- Snapshot

std::string device_name(int device) {
  if (!is_host_device(device)) return "device " + std::to_string(device);
  if (device == kHostDevice) return "host (pinned)";
  return "host " + std::to_string(device - kHostDevice) + " (pinned)";
}

std::optional<int> parse_device(std::string_view text) {
  int base = 0;
  int limit = 65535;
  if (text.starts_with("host")) {
    text.remove_prefix(4);
    if (text.empty()) return kHostDevice;
    base = kHostDevice;
    limit = kMaxHostDevices - 1;
  }
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < 0 || value > limit)
    return std::nullopt;
  return base + value;
}

StreamId StreamTable::intern(uint64_t stream) {
  if (values_[last_] == stream) return last_;
  const auto [at, added] = ids_.try_emplace(stream, static_cast<StreamId>(values_.size()));
  if (added) values_.push_back(stream);
  last_ = at->second;
  return last_;
}

const EventExtra& Snapshot::extra_of(const TraceEvent& event) const {
  static const EventExtra kNone;
  return event.has_extra() && event.link() < event_extras.size() ? event_extras[event.link()] : kNone;
}

const RareEventFields& Snapshot::rare_of(const TraceEvent& event) const {
  static const RareEventFields kNone;
  const uint32_t rare = extra_of(event).rare;
  return rare < rare_event_fields.size() ? rare_event_fields[rare] : kNone;
}

const PoolIdPair* Snapshot::pool_id_of(const TraceEvent& event) const {
  const RareEventFields& rare = rare_of(event);
  return rare.has_pool_id ? &rare.pool_id : nullptr;
}

std::vector<int> Snapshot::devices() const {
  std::vector<int> out;
  for (size_t d = 0; d < device_traces.size(); ++d) {
    if (!device_traces[d].events.empty()) out.push_back(static_cast<int>(d));
  }
  for (const Segment& s : segments) {
    if (s.device >= 0 && s.device <= std::numeric_limits<int>::max())
      out.push_back(static_cast<int>(s.device));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace snapscope
