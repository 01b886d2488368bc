// What the status bar says about the cursor: its event, time, and the allocated and reserved
// bytes at that moment. Allocated comes from the block timeline and reserved from the device's
// ReservedSeries, both at the same raw event, whichever of the two timelines the chart shows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "core/timeline/reserved_series.h"
#include "core/timeline/timeline.h"

namespace snapscope {

struct CursorReadout {
  size_t state = 0;                   // in the shown timeline
  int64_t event = -1;                 // raw trace index of the action that produced the state; -1 before any
  std::optional<int64_t> time_us;     // of that event, when the trace has time_us
  std::optional<int64_t> elapsed_us;  // time_us minus the first timed action's (trace start)
  uint64_t allocated_bytes = 0;
  uint64_t reserved_bytes = 0;
};

// `shown` is the block or the segment timeline (the one the cursor state belongs to).
CursorReadout read_cursor(const Timeline& shown, const Timeline& blocks, const ReservedSeries& reserved,
                          size_t state);

}  // namespace snapscope
