// Leaks proven by repetition: a location leaks when memory it made in one step is still live
// after the next step has ended, in at least two different steps, and what it keeps is still
// growing at the last step boundary. Memory that is merely live when the trace stops (activations
// of a forward whose backward was not recorded, the last step's loss) never qualifies: it has not
// survived a whole later step.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/analysis/source_location.h"
#include "core/classify/classifier.h"
#include "core/timeline/timeline.h"

namespace snapscope {

struct LeakingLocation {
  LocationId location = kUntracedLocation;
  uint64_t bytes = 0;  // kept allocations still live at the end of the trace
  uint64_t count = 0;
  size_t steps = 0;  // how many steps made them
};

struct StepLeaks {
  uint64_t bytes = 0;                      // sum over `locations`
  std::vector<LeakingLocation> locations;  // bytes descending, then label ascending
  std::optional<uint32_t> largest;         // the largest leaked allocation
};

// `starts`: step_starts(). Step k runs from starts[k] to the next start (the last step to the end
// of the trace). An allocation made in step k "outlives the next step" when it is live at the end
// of step k + 1. A location leaks when such allocations, all still live at the end, come from at
// least two steps, and the bytes it keeps from earlier steps are larger at the end than at the
// last step's start (a pipeline that frees each step's memory a few steps later levels off; a
// leak does not). Needs three starts at least; parameters, gradients, optimizer state and
// workspaces never leak (expected_to_persist).
StepLeaks find_step_leaks(const Timeline& timeline, const Classification& classification,
                          std::span<const size_t> starts, LocationIndex& locations);

}  // namespace snapscope
