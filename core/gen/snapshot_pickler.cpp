#include "core/gen/snapshot_pickler.h"

#include <array>
#include <limits>

namespace snapscope::gen {
namespace {

std::string_view action_name(EventKind kind) {
  switch (kind) {
    case EventKind::Alloc:
      return "alloc";
    case EventKind::FreeRequested:
      return "free_requested";
    case EventKind::FreeCompleted:
      return "free_completed";
    case EventKind::SegmentAlloc:
      return "segment_alloc";
    case EventKind::SegmentFree:
      return "segment_free";
    case EventKind::SegmentMap:
      return "segment_map";
    case EventKind::Annotate:
      return "annotate";
  }
  return "unknown";
}

std::string_view block_state(const SimBlock& block) {
  if (!block.allocated) return "inactive";
  return block.pending_free ? "active_pending_free" : "active_allocated";
}

}  // namespace

SnapshotPickler::SnapshotPickler(PickleWriter& writer, const CallSitePool& call_sites)
    : w_(writer), call_sites_(call_sites), frame_memo_(call_sites.frames().size(), kUnwritten) {}

void SnapshotPickler::hot_text(uint32_t& slot, std::string_view value) {
  if (slot != kUnwritten) {
    w_.get(slot);
    return;
  }
  text(value);
  slot = strings_.find(value)->second;
}

void SnapshotPickler::text(std::string_view value) {
  if (auto it = strings_.find(value); it != strings_.end()) {
    w_.get(it->second);
    return;
  }
  w_.str(value);
  strings_.emplace(std::string(value), w_.last_memo());
}

void SnapshotPickler::key_uint(std::string_view key, uint64_t value) {
  text(key);
  w_.uint(value);
}

void SnapshotPickler::frame(uint32_t frame_id) {
  if (frame_memo_[frame_id] != kUnwritten) {
    w_.get(frame_memo_[frame_id]);
    return;
  }
  const FrameSpec& spec = call_sites_.frames()[frame_id];
  w_.begin_dict();
  frame_memo_[frame_id] = w_.last_memo();
  text("name");
  text(spec.name);
  text("filename");
  text(spec.filename);
  text("line");
  w_.integer(spec.line);
  w_.end_dict();
}

uint32_t SnapshotPickler::frames_list(uint32_t site) {
  w_.begin_list();
  const uint32_t memo = w_.last_memo();
  for (uint32_t frame_id : call_sites_.stack(site)) frame(frame_id);
  w_.end_list();
  return memo;
}

void SnapshotPickler::forward_frames_list(uint32_t site) {
  if (const auto written = forward_lists_.find(site); written != forward_lists_.end()) {
    w_.get(written->second);
    return;
  }
  w_.begin_list();
  forward_lists_[site] = w_.last_memo();
  const auto stack = call_sites_.stack(site);
  for (auto frame = stack.rbegin(); frame != stack.rend(); ++frame) {
    const FrameSpec& spec = call_sites_.frames()[*frame];
    if (!spec.filename.ends_with(".py")) continue;  // C++ frames: autograd keeps the Python ones
    text("  File \"" + spec.filename + "\", line " + std::to_string(spec.line) + ", in " + spec.name + "\n");
  }
  w_.end_list();
}

void SnapshotPickler::event(const GenEvent& event, const EventFields& fields, std::string_view note) {
  w_.begin_dict();
  hot_text(hot_.action, "action");
  hot_text(hot_.actions[static_cast<size_t>(event.kind)], action_name(event.kind));
  hot_text(hot_.addr, "addr");
  w_.uint(event.address);
  hot_text(hot_.size, "size");
  w_.uint(event.size);
  hot_text(hot_.stream, "stream");
  w_.uint(event.stream);
  if (fields.time_us) {
    hot_text(hot_.time_us, "time_us");
    w_.integer(event.time_us);
  }
  if (fields.compile_context) {
    hot_text(hot_.compile_context, "compile_context");
    hot_text(hot_.not_available, "N/A");
  }
  if (event.kind == EventKind::Annotate) {
    hot_text(hot_.user_metadata, "user_metadata");
    text(note);
  } else if (fields.user_metadata) {
    hot_text(hot_.user_metadata, "user_metadata");
    hot_text(hot_.empty, "");
  }
  if (fields.forward_frames && event.kind == EventKind::Alloc &&
      event.forward_site != GenEvent::kNoForwardSite) {
    hot_text(hot_.forward_frames, "forward_frames");
    forward_frames_list(event.forward_site);
  }
  if (event.kind != EventKind::SegmentFree) {  // torch records segment_free without frames
    hot_text(hot_.frames, "frames");
    const auto live = live_lists_.find(event.address);
    const bool is_free = event.kind == EventKind::FreeRequested || event.kind == EventKind::FreeCompleted;
    if (is_free && live != live_lists_.end()) {
      w_.get(live->second);  // a free carries its allocation's stack: the same list object
    } else {
      const uint32_t list = frames_list(event.site);
      if (event.kind == EventKind::Alloc) live_lists_[event.address] = list;
    }
    if (event.kind == EventKind::FreeCompleted && live != live_lists_.end()) live_lists_.erase(live);
  }
  w_.end_dict();
}

void SnapshotPickler::block(const SimBlock& sim_block, uint64_t address) {
  w_.begin_dict();
  key_uint("address", address);
  key_uint("size", sim_block.size);
  key_uint("requested_size", sim_block.allocated ? sim_block.requested : 0);
  text("state");
  text(block_state(sim_block));
  text("frames");
  if (sim_block.allocated) {
    frames_list(sim_block.site);
  } else {
    w_.begin_list();
    w_.end_list();
  }
  w_.end_dict();
}

void SnapshotPickler::segment(const SimSegment& segment, int device, std::array<int64_t, 2> pool) {
  uint64_t allocated = 0;
  uint64_t requested = 0;
  for (const auto& [address, b] : segment.blocks) {
    if (!b.allocated) continue;
    allocated += b.size;
    requested += b.requested;
  }
  w_.begin_dict();
  text("device");
  w_.integer(device);
  key_uint("address", segment.address);
  key_uint("total_size", segment.size);
  key_uint("allocated_size", allocated);
  key_uint("active_size", allocated);
  key_uint("requested_size", requested);
  key_uint("stream", segment.stream);
  text("segment_type");
  text(segment.large ? "large" : "small");
  text("segment_pool_id");
  w_.begin_tuple();
  w_.integer(pool[0]);
  w_.integer(pool[1]);
  w_.end_tuple();
  text("is_expandable");
  w_.boolean(segment.expandable);
  text("blocks");
  w_.begin_list();
  for (const auto& [address, b] : segment.blocks) block(b, address);
  w_.end_list();
  text("frames");
  frames_list(segment.site);
  w_.end_dict();
}

void SnapshotPickler::allocator_settings(bool expandable_segments) {
  w_.begin_dict();
  text("PYTORCH_CUDA_ALLOC_CONF");
  text(expandable_segments ? "expandable_segments:True" : "");
  text("max_split_size");
  w_.integer(-1);
  text("garbage_collection_threshold");
  w_.floating(0.0);
  text("expandable_segments");
  w_.boolean(expandable_segments);
  text("pinned_num_register_threads");
  w_.integer(1);
  text("release_lock_on_cudamalloc");
  w_.boolean(false);
  text("pinned_use_cuda_host_register");
  w_.boolean(false);
  text("roundup_power2_divisions");
  w_.begin_dict();
  for (uint64_t divisions = 1; divisions <= 32768; divisions *= 2) {
    text(std::to_string(divisions));
    w_.integer(0);
  }
  w_.end_dict();
  w_.end_dict();
}

void SnapshotPickler::annotation(const GenAnnotation& annotation, int device) {
  w_.begin_dict();
  text("stage");
  text(annotation.start ? "START" : "END");
  text("name");
  text(annotation.name);
  text("device");
  w_.integer(device);
  text("time_us");
  w_.integer(annotation.time_us);
  w_.end_dict();
}

}  // namespace snapscope::gen
