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

namespace {

// A C++ frame (no Python source) as the location rule names it: "BmmBackward0" for
// "??:0:torch::autograd::generated::BmmBackward0::apply(std::vector<...>&&)".
bool is_native_frame(const FrameText& frame) {
  const FrameKind kind = classify_frame(frame.name, frame.filename);
  return kind == FrameKind::AutogradNode || kind == FrameKind::Operator ||
         (!frame.filename.ends_with(".py") && frame.fx_node_op.empty() && frame.fx_original_trace.empty());
}

}  // namespace

std::vector<std::string> stack_lines(std::span<const FrameText> frames, bool show_all_frames) {
  std::vector<std::string> lines;
  for (const FrameText& frame : frames) {
    if (show_all_frames) {
      lines.push_back(frame_line(frame));
    } else if (!is_noise_frame(frame.name, frame.filename)) {
      lines.push_back(is_native_frame(frame) ? location_label(frame.name, frame.filename, frame.line)
                                             : frame_line(frame));
    }
  }
  return elide_repeats(lines);
}

std::vector<FrameText> parse_frame_lines(std::string_view text) {
  std::vector<FrameText> frames;
  while (!text.empty()) {
    const size_t newline = text.find('\n');
    const std::string_view line = text.substr(0, newline);
    text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
    if (line.empty()) continue;
    // The first ":DIGITS:" splits file from name (a Windows drive "C:\\" has no digits after it).
    FrameText frame;
    frame.name = std::string(line);
    for (size_t colon = line.find(':'); colon != std::string_view::npos; colon = line.find(':', colon + 1)) {
      const size_t end = line.find(':', colon + 1);
      const std::string_view digits =
          line.substr(colon + 1, end == std::string_view::npos ? 0 : end - colon - 1);
      const bool numeric = !digits.empty() &&
                           digits.find_first_not_of("0123456789") == std::string_view::npos &&
                           digits.size() <= 18;
      if (!numeric) continue;
      frame.filename = std::string(line.substr(0, colon));
      frame.line = std::stoll(std::string(digits));
      frame.name = std::string(line.substr(end + 1));
      break;
    }
    frames.push_back(std::move(frame));
  }
  return frames;
}

std::string stack_location(std::span<const FrameText> frames, std::span<const FrameText> forward_frames) {
  if (frames.empty()) return {};
  const FrameText& at = frames[first_user_frame(frames)];
  std::string label = first_user_label(frames);
  if (!forward_frames.empty() && classify_frame(at.name, at.filename) == FrameKind::AutogradNode) {
    const FrameText& forward = forward_frames[first_user_frame(forward_frames)];
    if (classify_frame(forward.name, forward.filename) == FrameKind::User)
      label += " <- " + location_label(forward.name, forward.filename, forward.line);
  }
  return label;
}

size_t first_user_frame(std::span<const FrameText> frames) {
  if (frames.empty()) return 0;
  return location_frame_index(frames.size(),
                              [&](size_t i) { return classify_frame(frames[i].name, frames[i].filename); });
}

std::string first_user_label(std::span<const FrameText> frames) {
  if (frames.empty()) return {};
  const auto kind_of = [&](size_t i) { return classify_frame(frames[i].name, frames[i].filename); };
  const size_t at = location_frame_index(frames.size(), kind_of);
  std::string label = location_label(frames[at].name, frames[at].filename, frames[at].line);
  if (compiled_frame_index(frames.size(), at, kind_of) < frames.size()) label += kCompiledSuffix;
  return label;
}

}  // namespace snapscope
