// Call-stack text for the inspector, following memory_viz: interpreter and dispatcher frames are
// hidden by default, and runs of identical frames collapse into "<repeats N times>".
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace snapscope {

// One frame as the inspector shows it (resolved strings, not interned ids).
struct FrameText {
  std::string name;
  std::string filename;
  int64_t line = 0;
  std::string fx_node_op, fx_node_name, fx_node_target, fx_original_trace;
};

// The frame filter: memory_viz's list plus unresolved "??" frames, the allocator, dispatch and
// boxing glue, the autograd engine, CPython's interpreter and libc (core/analysis/frame_kind.h).
bool is_noise_frame(std::string_view name, std::string_view filename);

// Consecutive equal lines: one stays, two stay, three or more become the line plus
// "<repeats N times>" where N counts the dropped copies.
std::vector<std::string> elide_repeats(std::span<const std::string> lines);

// "filename:line:name", plus FX node lines when the frame carries them.
std::string frame_line(const FrameText& frame);

// The stack, innermost frame first, one frame per line. Unless show_all_frames: filtered, and
// C++ frames named as the location rule names them ("BmmBackward0", "at::native::bmm").
std::vector<std::string> stack_lines(std::span<const FrameText> frames, bool show_all_frames);

// The inverse of the reader's joined stack text (event_extras.forward_frames): one
// "filename:line:name" per line, innermost first. A line without ":LINE:" becomes a frame with
// only a name.
std::vector<FrameText> parse_frame_lines(std::string_view text);

// The location rule's label for a stack (first_user_frame); for a backward allocation named by its
// autograd node, with the forward op's stack recorded (forward_frames), the forward op's user line
// follows: "BmmBackward0 <- model.py:79 (forward)". Empty for an empty stack.
std::string stack_location(std::span<const FrameText> frames, std::span<const FrameText> forward_frames);

// Index of the frame that names where this stack allocated (the location rule,
// core/analysis/frame_kind.h location_frame_index); 0 for an empty stack. Every view that shows or
// groups on a location goes through this or LocationIndex.
size_t first_user_frame(std::span<const FrameText> frames);
// The label of that frame, ending in kCompiledSuffix when torch.compile's generated code lies
// inside it (the same label LocationIndex gives); empty for an empty stack.
std::string first_user_label(std::span<const FrameText> frames);

}  // namespace snapscope
