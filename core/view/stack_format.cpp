#include "core/view/stack_format.h"

#include <algorithm>
#include <array>

namespace snapscope {
namespace {

constexpr std::array<std::string_view, 8> kNoiseFunctions = {"unwind::unwind",    "CapturedTraceback::gather",
                                                             "gather_with_cpp",   "_start",
                                                             "__libc_start_main", "PyEval_",
                                                             "PyObject_",         "PyFunction_"};
constexpr std::array<std::string_view, 10> kNoiseFiles = {"core/boxing",
                                                          "/Register",
                                                          "/Redispatch",
                                                          "pythonrun.c",
                                                          "Modules/main.c",
                                                          "Objects/call.c",
                                                          "Objects/methodobject.c",
                                                          "pycore_ceval.h",
                                                          "ceval.c",
                                                          "cpython/abstract.h"};

bool contains_any(std::string_view text, std::span<const std::string_view> needles) {
  return std::any_of(needles.begin(), needles.end(),
                     [&](std::string_view needle) { return text.find(needle) != std::string_view::npos; });
}

bool is_user_python_file(std::string_view filename) {
  const bool python = filename.ends_with(".py");
  // torch's own Python layers (nn.Module.__call__, autograd) are not the user's allocation site.
  const bool torch_internal =
      filename.find("/torch/") != std::string_view::npos || filename.starts_with("torch/");
  return python && !torch_internal;
}

}  // namespace

bool is_noise_frame(std::string_view name, std::string_view filename) {
  return contains_any(name, kNoiseFunctions) || contains_any(filename, kNoiseFiles);
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
  size_t first_kept = frames.size();
  for (size_t i = 0; i < frames.size(); ++i) {
    if (is_noise_frame(frames[i].name, frames[i].filename)) continue;
    if (is_user_python_file(frames[i].filename)) return i;
    first_kept = std::min(first_kept, i);
  }
  return first_kept;
}

}  // namespace snapscope
