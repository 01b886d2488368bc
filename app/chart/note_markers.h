// Notes attached to allocations after the fact (torch.cuda.memory._annotate_memory, trace action
// "annotate") as small markers along the chart's top edge, at their events; hovering one shows
// its metadata and address. Many notes in one pixel column draw one marker.
#pragma once

#include <optional>
#include <utility>

#include "core/session/session.h"

namespace snapscope {

// Draws the shown device's note markers along the top of the chart rectangle (window pixels),
// with the tooltip of the one under `pointer` (the chart's hover, window pixels); returns how many
// are drawn.
size_t draw_note_markers(const Session& session, float x, float y, float width,
                         const std::optional<std::pair<double, double>>& pointer);

}  // namespace snapscope
