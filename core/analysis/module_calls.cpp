#include "core/analysis/module_calls.h"

#include <charconv>

namespace snapscope {
namespace {

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::string_view base_name(std::string_view path) {
  const size_t slash = path.find_last_of("/\\");
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

bool is_module_machinery(std::string_view filename) {
  return ends_with(filename, "torch/nn/modules/module.py") ||
         ends_with(filename, "torch\\nn\\modules\\module.py");
}

std::vector<ModuleCall> module_calls(std::span<const PyFrame> frames) {
  std::vector<ModuleCall> calls;
  const PyFrame* caller = nullptr;
  bool entering = false;
  for (size_t i = frames.size(); i-- > 0;) {  // outermost first
    const PyFrame& frame = frames[i];
    if (!ends_with(frame.filename, ".py")) continue;
    if (is_module_machinery(frame.filename)) {
      entering = true;
      continue;
    }
    if (entering) {
      calls.push_back({frame.name, frame.filename, frame.line, caller ? caller->filename : std::string_view{},
                       caller ? caller->line : 0});
    }
    entering = false;
    caller = &frame;
  }
  return calls;
}

std::string module_call_label(const ModuleCall& call) {
  std::string label = std::string(call.function) + " (" + std::string(base_name(call.file)) + ")";
  if (!call.caller_file.empty())
    label += " <- " + std::string(base_name(call.caller_file)) + ":" + std::to_string(call.caller_line);
  return label;
}

std::vector<PyFrame> parse_forward_frames(std::string_view text) {
  std::vector<PyFrame> frames;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    // Split from the right: a Windows path has a ':' of its own.
    const size_t name_colon = line.rfind(':');
    if (name_colon == std::string_view::npos || name_colon == 0) continue;
    const size_t line_colon = line.rfind(':', name_colon - 1);
    if (line_colon == std::string_view::npos) continue;
    int64_t number = 0;
    const char* first = line.data() + line_colon + 1;
    const char* last = line.data() + name_colon;
    if (std::from_chars(first, last, number).ptr != last) continue;
    frames.push_back({line.substr(name_colon + 1), line.substr(0, line_colon), number});
  }
  return frames;
}

}  // namespace snapscope
