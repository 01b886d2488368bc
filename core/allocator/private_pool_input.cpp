#include "core/allocator/private_pool_input.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>

#include "core/allocator/segment_pools.h"
#include "core/store/elements_db/elements_db.h"

namespace snapscope {
namespace {

bool is_private(const PoolId& pool) { return pool != PoolId{0, 0}; }

// Pool indices by key, in first-seen order.
class PoolIndex {
 public:
  uint32_t of(const PoolKey& key) {
    auto [at, added] = index_.try_emplace(key, static_cast<uint32_t>(keys_.size()));
    if (added) keys_.push_back(key);
    return at->second;
  }
  std::vector<PoolKey> take() { return std::move(keys_); }

 private:
  std::map<PoolKey, uint32_t> index_;
  std::vector<PoolKey> keys_;
};

// Each element's private pool id (none: the default pool or no known pool).
std::vector<std::optional<PoolId>> element_pool_ids(const Timeline& blocks, const PoolSources& sources,
                                                    const SegmentPools& segments) {
  const ReplayInput& input = blocks.input();
  const std::map<int64_t, PoolId> event_pool(sources.event_pools.begin(), sources.event_pools.end());
  std::vector<std::optional<PoolId>> pools(blocks.element_count());
  for (uint32_t elem = 0; elem < pools.size(); ++elem) {
    const ReplayElement& element = input.elements[elem];
    std::optional<PoolId> pool;
    if (const auto named = event_pool.find(element.source_event()); named != event_pool.end()) {
      pool = named->second;
    } else {
      pool = segments.private_pool_at(element.addr);
    }
    if (pool && is_private(*pool)) pools[elem] = pool;
  }
  return pools;
}

bool names_a_private_pool(const PoolSources& sources) {
  return std::any_of(sources.final_segments.begin(), sources.final_segments.end(),
                     [](const SegmentRow& row) { return is_private(row.pool_id); }) ||
         std::any_of(sources.event_pools.begin(), sources.event_pools.end(),
                     [](const auto& named) { return is_private(named.second); });
}

int64_t signed_bytes(uint64_t bytes) {
  return static_cast<int64_t>(std::min<uint64_t>(bytes, std::numeric_limits<int64_t>::max()));
}

}  // namespace

PrivatePoolInput private_pool_input(const Timeline& blocks, const PoolSources& sources) {
  SegmentPools segments;
  for (const SegmentRow& row : sources.final_segments) segments.add(row.address, row.total_size, row.pool_id);

  PrivatePoolInput result;
  result.element_pool.assign(blocks.element_count(), kNoIndex);
  // Most traces never use a private pool: then no element can be in one, and the pass over
  // every element (0.8 s at 2M of them, read back from elements.db) is skipped.
  if (!names_a_private_pool(sources)) return result;
  const auto pool_ids = element_pool_ids(blocks, sources, segments);
  std::vector<uint32_t> members;
  for (uint32_t elem = 0; elem < pool_ids.size(); ++elem) {
    if (pool_ids[elem]) members.push_back(elem);
  }
  if (members.empty()) return result;  // no private pool: the view equals the active one

  PoolIndex index;
  const std::vector<uint64_t> streams = sources.element_streams(members);
  for (size_t i = 0; i < members.size(); ++i) {
    result.element_pool[members[i]] = index.of({*pool_ids[members[i]], i < streams.size() ? streams[i] : 0});
  }
  std::vector<std::pair<uint32_t, uint64_t>> reserved;  // (pool, bytes) of end-of-trace segments
  for (const SegmentRow& row : sources.final_segments) {
    if (is_private(row.pool_id)) reserved.emplace_back(index.of({row.pool_id, row.stream}), row.total_size);
  }
  // A segment event sits between the timeline's actions: after those with a smaller event index.
  for (const EventRow& event : sources.segment_events()) {
    const std::optional<PoolId> pool = segments.private_pool_at(event.address);
    if (!pool) continue;
    // Actions' events are >= -1, so none comes before an event index below 0 (an untrusted one).
    const size_t position = event.index < 0 ? 0 : blocks.actions_through_event(event.index - 1);
    const auto action = static_cast<Action>(event.action);
    const bool adds = action == Action::SegmentAlloc || action == Action::SegmentMap;
    const int64_t size = signed_bytes(event.size);
    result.segment_changes.push_back({position, index.of({*pool, event.stream}), adds ? size : -size});
  }
  result.pools = index.take();
  result.snapshot_reserved.assign(result.pools.size(), 0);
  for (const auto& [pool, bytes] : reserved) result.snapshot_reserved[pool] += bytes;
  return result;
}

PrivatePoolInput private_pool_input_from_db(const std::string& db_path, const Timeline& blocks) {
  const ElementsDbReader db(db_path);
  const int device = blocks.input().device;
  PoolSources sources;
  sources.final_segments = db.final_segments(device);
  sources.event_pools = db.event_pools(device);
  sources.element_streams = [&](const std::vector<uint32_t>& elems) {
    return db.allocation_streams(device, elems);
  };
  sources.segment_events = [&] { return db.segment_events(device); };
  return private_pool_input(blocks, sources);
}

PrivatePoolInput private_pool_input_from_snapshot(const Snapshot& snapshot, const Timeline& blocks) {
  const int device = blocks.input().device;
  const std::vector<TraceEvent> no_events;
  const auto& events = static_cast<size_t>(device) < snapshot.device_traces.size()
                           ? snapshot.device_traces[static_cast<size_t>(device)].events
                           : no_events;
  PoolSources sources;
  for (const Segment& segment : snapshot.segments) {
    if (segment.device != device) continue;
    sources.final_segments.push_back({segment.address,
                                      segment.total_size,
                                      segment.stream,
                                      segment.stack,
                                      {segment.pool_id[0], segment.pool_id[1]}});
  }
  for (size_t i = 0; i < events.size(); ++i) {
    const PoolIdPair* pool = snapshot.pool_id_of(events[i]);
    if (!pool) continue;
    sources.event_pools.push_back({static_cast<int64_t>(i), {(*pool)[0], (*pool)[1]}});
  }
  // As elements.db stores them.
  sources.element_streams = [&](const std::vector<uint32_t>& elems) {
    std::vector<uint64_t> streams;
    for (uint32_t elem : elems) streams.push_back(element_stream(snapshot, blocks.input(), elem));
    return streams;
  };
  sources.segment_events = [&] {
    std::vector<EventRow> rows;
    for (size_t i = 0; i < events.size(); ++i) {
      const Action action = events[i].action();
      if (action != Action::SegmentAlloc && action != Action::SegmentFree && action != Action::SegmentMap &&
          action != Action::SegmentUnmap) {
        continue;
      }
      rows.push_back({static_cast<int64_t>(i), static_cast<int64_t>(action), events[i].addr, events[i].size,
                      snapshot.stream_of(events[i]), events[i].stack});
    }
    return rows;
  };
  return private_pool_input(blocks, sources);
}

}  // namespace snapscope
