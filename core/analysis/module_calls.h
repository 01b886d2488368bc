// The module path of one stack: the nn.Module calls it went through, read from Python frames.
// torch enters every module through torch/nn/modules/module.py (_wrapped_call_impl, _call_impl);
// the frame just inside those calls is the module's forward, the frame just outside is its caller.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace snapscope {

struct PyFrame {
  std::string_view name, filename;
  int64_t line = 0;
};

struct ModuleCall {
  std::string_view function, file;  // the forward that was entered
  int64_t line = 0;                 // the forward's line that led on to the allocation
  std::string_view caller_file;     // the frame that called the module; empty if none was recorded
  int64_t caller_line = 0;
};

// Whether the frame is torch's module-call machinery (any frame of torch/nn/modules/module.py).
bool is_module_machinery(std::string_view filename);

// The module calls of a stack given innermost frame first, outermost call first. Frames that are
// not Python (no ".py" file) are skipped, so C++ and interpreter frames between them do not matter.
std::vector<ModuleCall> module_calls(std::span<const PyFrame> frames);

// "forward (transformer.py) <- transformer.py:292": the forward by file and function, and its call
// site, which tells apart two modules of the same class called from different lines.
std::string module_call_label(const ModuleCall& call);

// Parses a joined forward stack (model.h RareEventFields::forward_frames: "file:line:function"
// lines, innermost first) into frames; the views point into `text`.
std::vector<PyFrame> parse_forward_frames(std::string_view text);

}  // namespace snapscope
