// The inputs of the "Allocated Memory (incl. Private Pools)" view (core/timeline/
// private_pool_layout.h) for one device, found as memory_viz's process_alloc_data finds them: an
// allocation's pool is the one its trace entry names, else that of the end-of-trace segment
// holding its address (a snapshot block lies in its own segment); a segment event counts for the
// pool of the end-of-trace segment holding its address. Read from a converted elements.db (the
// viewer) or from a snapshot in memory (exports of a pickle).
#pragma once

#include <array>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/snapshot/model.h"
#include "core/store/elements_db/elements_db_reader.h"
#include "core/timeline/private_pool_layout.h"
#include "core/timeline/timeline.h"

namespace snapscope {

// What the derivation reads, wherever it comes from. Streams and segment events are asked for
// only when some allocation is in a private pool (the usual device has none).
struct PoolSources {
  std::vector<SegmentRow> final_segments;                               // the device's end-of-trace segments
  std::vector<std::pair<int64_t, std::array<int64_t, 2>>> event_pools;  // trace entries naming a pool
  std::function<std::vector<uint64_t>(const std::vector<uint32_t>&)> element_streams;
  std::function<std::vector<EventRow>()> segment_events;  // in trace order
};

PrivatePoolInput private_pool_input(const Timeline& blocks, const PoolSources& sources);

// `blocks` is the device's blocks timeline. One scan of the device's events when it has a pool.
PrivatePoolInput private_pool_input_from_db(const std::string& db_path, const Timeline& blocks);
PrivatePoolInput private_pool_input_from_snapshot(const Snapshot& snapshot, const Timeline& blocks);

}  // namespace snapscope
