// "Color by allocation site": every allocation gets the key of its location (the location rule,
// stack_format.h first_user_frame), ranked by bytes so the biggest sites get the first palette colors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/timeline/replay_input.h"

namespace snapscope {

class ElementsDbReader;

struct AllocationSite {
  std::string label;   // location_label: "file:line (function)", "BmmBackward0", or kUntracedLabel
  uint64_t bytes = 0;  // sum of the sizes of its allocations
  uint64_t count = 0;
};

struct SiteColoring {
  std::vector<uint32_t> keys;         // per element: index into sites
  std::vector<AllocationSite> sites;  // by bytes, largest first
};

// The elements' stacks and sizes from the timeline in memory, plus one stack lookup per distinct
// stack in `db`.
SiteColoring color_by_site(const ElementsDbReader& db, const ReplayInput& input);

}  // namespace snapscope
