#include "core/view/stack_format.h"

#include "core/analysis/frame_kind.h"

namespace snapscope {
bool is_noise_frame(std::string_view name, std::string_view filename) {
  return classify_frame(name, filename) == FrameKind::Hidden;
}

std::vector<std::string> elide_repeats(std::span<const std::string> lines) {
  std::vector<std::string> result;
  for (size_t begin = 0; begin < lines.size();) {
    size_t end = begin + 1;
    while (end < lines.size() && lines[end] == lines[begin]) ++end;
    const size_t run = end - begin;
    result.push_back(lines[begin]);
    if (run == 2) result.push_back(lines[begin]);
    if (run > 2) result.push_back("<repeats " + std::to_string(run - 1) + " times>");
    begin = end;
  }
  return result;
}

std::string frame_line(const FrameText& frame) {
  std::string text = frame.filename + ":" + std::to_string(frame.line) + ":" + frame.name;
  if (!frame.fx_node_op.empty() || !frame.fx_node_name.empty() || !frame.fx_node_target.empty()) {
    text += "\n    FX node: name=" + frame.fx_node_name + " op=" + frame.fx_node_op +
            " target=" + frame.fx_node_target;
  }
  if (!frame.fx_original_trace.empty()) text += "\n    FX original trace:\n" + frame.fx_original_trace;
  return text;
}

std::vector<std::string> stack_lines(std::span<const FrameText> frames, bool show_all_frames) {
  std::vector<std::string> lines;
  for (const FrameText& frame : frames) {
    if (show_all_frames || !is_noise_frame(frame.name, frame.filename)) lines.push_back(frame_line(frame));
  }
  return elide_repeats(lines);
}

size_t first_user_frame(std::span<const FrameText> frames) {
  if (frames.empty()) return 0;
  return location_frame_index(frames.size(),
                              [&](size_t i) { return classify_frame(frames[i].name, frames[i].filename); });
}

}  // namespace snapscope
