// elements.db: the SQLite side of a converted snapshot (every event, allocation, frame and
// stack, for ad-hoc queries and the viewer's detail panes). Schema: docs/FORMAT.md.
#pragma once

#include <span>
#include <string>

#include "core/snapshot/model.h"
#include "core/store/device_stats.h"
#include "core/timeline/timeline.h"

namespace snapscope {

inline constexpr int kElementsDbVersion = 1;

// One device's replayed timelines and headline numbers, as the db writer needs them.
struct DeviceTimelines {
  const Timeline* blocks = nullptr;
  const Timeline* segments = nullptr;
  DeviceStats stats;
};

// Builds the database at `path` (which must not exist) in one transaction. Only the given
// devices' events, segments and blocks are stored. Throws std::runtime_error("<path>: ...").
void write_elements_db(const Snapshot& snapshot, std::span<const DeviceTimelines> devices,
                       const std::string& path);

}  // namespace snapscope
