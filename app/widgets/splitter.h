// A draggable bar between two panes (Dear ImGui 1.86 has no public splitter): it changes one
// pane's size, clamped, and shows the resize cursor while hovered or dragged.
#pragma once

namespace snapscope {

enum class SplitAxis { Vertical, Horizontal };  // Vertical: a bar between left and right panes

// Draws the bar at the cursor (`thickness` across, `length` along) and applies drags to `size`.
// `grows_with_drag`: dragging right / down makes `size` larger (the pane before the bar).
// Returns true while dragging.
bool splitter(const char* id, SplitAxis axis, float thickness, float length, float& size, float min_size,
              float max_size, bool grows_with_drag);

}  // namespace snapscope
