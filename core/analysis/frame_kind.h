// What one stack frame is, for the location rule and the frame filter: user code, a model
// library, a thin wrapper library, PyTorch's own layers, an autograd node, an ATen operator, or
// machinery nobody wants to read (unwinder, allocator, dispatcher, CPython, libc). Works on
// frames from any OS (POSIX and Windows paths alike).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace snapscope {

enum class FrameKind : uint8_t {
  Hidden,    // the filter hides it: unwinder, allocator, dispatch/boxing, CPython, libc, "??"
  Internal,  // shown, never the location: torch's Python, ATen/c10 internals, tensor factories
  Wrapper,   // a thin wrapper library (einops...): shown, never the location
  // Code torch.compile generated (an Inductor module under a torchinductor_<user> directory, an
  // FX graph's <eval_with_key>.N, <string>, <torch_dynamo_resume_in_...>): shown, never the
  // location, since its file name changes on every run; the user frame that called it is the
  // location, marked compiled.
  Generated,
  Operator,      // an ATen operator entry (at::native::bmm): the location of C++-only stacks
  AutogradNode,  // torch::autograd::generated::BmmBackward0::apply: names a backward allocation
  User,          // the user's Python, or a model library (transformers): the location
};

FrameKind classify_frame(std::string_view name, std::string_view filename);

// Python packages whose frames are never the location (the caller's line is). Process-wide, so
// every view (tables, trees, legend, tooltips) agrees; the viewer's settings edit it.
std::vector<std::string> default_wrapper_libraries();
std::vector<std::string> wrapper_libraries();
void set_wrapper_libraries(std::vector<std::string> packages);
// "einops, opt_einsum" <-> {"einops", "opt_einsum"}: the settings' text form (blanks dropped).
std::string join_packages(const std::vector<std::string>& packages);
std::vector<std::string> split_packages(std::string_view text);
// Bumped by set_wrapper_libraries, so caches of classifications know when to start over.
uint64_t wrapper_libraries_generation();

// The location rule, over a stack given innermost first as `count` frame kinds: the innermost
// user frame; but an autograd node reached before any user frame wins (a backward allocation's
// innermost user frame is only the `loss.backward()` call); else the innermost operator; else the
// innermost frame the filter keeps; else 0. `count` when the stack is empty.
// Generated frames are skipped like library frames: a stack of generated code alone falls back
// to an operator or another shown frame before it ever names a generated file.
size_t location_frame_index(size_t count, const std::function<FrameKind(size_t)>& kind_of);
// The innermost generated frame inside (before) the location frame `location`: the compiled
// graph or kernel that made the allocation on the location's behalf. `count` when there is none,
// so the location is plain eager code.
size_t compiled_frame_index(size_t count, size_t location, const std::function<FrameKind(size_t)>& kind_of);

// "file:line (function)" for Python frames; C++ frames without a source file print their
// function without arguments or return type, and an autograd node prints its node name only
// ("BmmBackward0").
std::string location_label(std::string_view name, std::string_view filename, int64_t line);

// Appended to the label of a location reached through torch.compile's generated code, so the
// same line run eagerly and compiled stays two rows, and a reader sees why no kernel line shows.
inline constexpr std::string_view kCompiledSuffix = " [compiled]";

// The function name shortened as location_label prints it.
std::string short_function_name(std::string_view name);

}  // namespace snapscope
