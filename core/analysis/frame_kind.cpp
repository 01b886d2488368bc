// The lists below were read off real traces recorded with C++ frames (GPT training steps on
// Linux, CPython 3.10-3.13): what sits between the allocator and the user's line.
#include "core/analysis/frame_kind.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <span>

namespace snapscope {
namespace {

using Needles = std::span<const std::string_view>;

bool contains_any(std::string_view text, Needles needles) {
  return std::any_of(needles.begin(), needles.end(),
                     [&](std::string_view needle) { return text.find(needle) != std::string_view::npos; });
}

bool starts_with_any(std::string_view text, Needles prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(),
                     [&](std::string_view p) { return text.starts_with(p); });
}

// memory_viz's own filter (MemoryViz.js), by function and by file.
constexpr std::array<std::string_view, 8> kMemoryVizFunctions = {
    "unwind::unwind",    "CapturedTraceback::gather",
    "gather_with_cpp",   "_start",
    "__libc_start_main", "PyEval_",
    "PyObject_",         "PyFunction_"};
constexpr std::array<std::string_view, 10> kMemoryVizFiles = {"core/boxing",
                                                              "/Register",
                                                              "/Redispatch",
                                                              "pythonrun.c",
                                                              "Modules/main.c",
                                                              "Objects/call.c",
                                                              "Objects/methodobject.c",
                                                              "pycore_ceval.h",
                                                              "ceval.c",
                                                              "cpython/abstract.h"};

// Beyond memory_viz: the allocator, dispatcher glue, the autograd engine, CPython and libc.
constexpr std::array<std::string_view, 17> kHiddenFunctionParts = {"CachingAllocator",
                                                                   "c10::Allocator",
                                                                   "c10::impl::wrap_kernel_functor",
                                                                   "c10::impl::make_boxed",
                                                                   "c10::impl::BoxedKernel",
                                                                   "c10::BoxedKernel",
                                                                   "c10::KernelFunction",
                                                                   "c10::Dispatcher",
                                                                   "c10::OperatorHandle",
                                                                   "::redispatch",
                                                                   "torch::autograd::validate_outputs",
                                                                   "torch::autograd::VariableType::",
                                                                   "torch::ADInplaceOrView",
                                                                   "torch::autograd::Engine::",
                                                                   "torch::autograd::Node::operator()",
                                                                   "PythonEngine::",
                                                                   "THPVariable_"};
constexpr std::array<std::string_view, 21> kHiddenFunctionPrefixes = {"builtin_",
                                                                      "_Py",
                                                                      "pymain_",
                                                                      "method_vectorcall",
                                                                      "cfunction_",
                                                                      "slot_tp_",
                                                                      "run_eval_code_obj",
                                                                      "run_mod",
                                                                      "pyrun_",
                                                                      "vectorcall",
                                                                      "THPEngine_",
                                                                      "__libc",
                                                                      "_start",
                                                                      "start_thread",
                                                                      "clone",
                                                                      "__clone",
                                                                      "__xmknodat",
                                                                      "pthread_",
                                                                      "execute_native_thread_routine",
                                                                      "_dl_",
                                                                      "std::thread"};
constexpr std::array<std::string_view, 7> kHiddenFilePrefixes = {"Register",
                                                                 "VariableType",
                                                                 "ADInplaceOrViewType",
                                                                 "TraceType",
                                                                 "memory_snapshot.cpp",
                                                                 "python_torch_functions",
                                                                 "CUDACachingAllocator"};

// Where a tensor's memory is made rather than which operator wanted it.
constexpr std::array<std::string_view, 9> kFactoryParts = {"empty",       "TensorIterator", "create_out",
                                                           "set_output",  "resize_",        "structured_",
                                                           "make_tensor", "at::detail::",   "allocate"};

bool is_cpython_api(std::string_view name) {
  // Py_RunMain, PyEval_EvalCode, PyObject_Call...: "Py" then an upper-case letter or '_'.
  return name.size() > 2 && name.starts_with("Py") && ((name[2] >= 'A' && name[2] <= 'Z') || name[2] == '_');
}

std::string_view basename(std::string_view path) {
  const size_t slash = path.find_last_of("/\\");
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool unresolved(std::string_view name) { return name.empty() || name == "??"; }

// CPython's own C sources (a conda build keeps their paths: .../Python/bltinmodule.c).
bool is_cpython_source(std::string_view filename) {
  const bool c_file = filename.ends_with(".c") || filename.ends_with(".h");
  return c_file && (filename.find("/Python/") != std::string_view::npos ||
                    filename.find("/Objects/") != std::string_view::npos ||
                    filename.find("/Modules/") != std::string_view::npos ||
                    filename.find("/Include/") != std::string_view::npos);
}

// Function-name tests apply to native frames only: a user's Python `on_train_start` is not libc.
bool is_hidden_native(std::string_view name, std::string_view filename) {
  if (contains_any(name, kMemoryVizFunctions) || contains_any(filename, kMemoryVizFiles)) return true;
  if (unresolved(name) || is_cpython_api(name) || is_cpython_source(filename)) return true;
  // Parts are tested on the name without its arguments: "f(c10::Allocator*)" is no allocator.
  const std::string function = short_function_name(name);
  if (contains_any(function, kHiddenFunctionParts) || starts_with_any(name, kHiddenFunctionPrefixes))
    return true;
  // A dispatcher entry of a tensor factory (at::_ops::empty_memory_format::call) is glue too.
  if (function.starts_with("aten::") && contains_any(function, kFactoryParts)) return true;
  return starts_with_any(basename(filename), kHiddenFilePrefixes);
}

// Lower case with '/' separators, wrapped in '/' so package tests can look for "/name/".
std::string normalized_path(std::string_view filename) {
  std::string path = "/";
  for (char c : filename) {
    const char lower = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    path += c == '\\' ? '/' : lower;
  }
  return path;
}

bool in_package(const std::string& path, std::string_view package) {
  const std::string name = normalized_path(package).substr(1);
  const std::string dir = "/" + name + "/";
  const std::string module = "/" + name + ".py";
  return path.find(dir) != std::string::npos || path.find(module) != std::string::npos;
}

bool is_version(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
}

// CPython's standard library: .../lib/python3.11/x.py (POSIX) or ...\Python311\Lib\x.py.
bool is_stdlib(const std::string& path) {
  if (path.find("/site-packages/") != std::string::npos || path.find("/dist-packages/") != std::string::npos)
    return false;
  for (size_t lib = path.find("/lib/"); lib != std::string::npos; lib = path.find("/lib/", lib + 1)) {
    const size_t next = path.find('/', lib + 5);
    const std::string_view after = std::string_view(path).substr(lib + 5, next - lib - 5);
    if (after.starts_with("python") && is_version(after.substr(6))) return true;  // lib/python3.11/
    const size_t before = path.rfind('/', lib - 1);
    const std::string_view dir = std::string_view(path).substr(before + 1, lib - before - 1);
    if (lib > 0 && dir.starts_with("python") && is_version(dir.substr(6))) return true;  // python311/lib/
  }
  return false;
}

// Python names code without a file "<...>": <frozen importlib._bootstrap>, <string>,
// <eval_with_key>.3 (an FX graph), <torch_dynamo_resume_in_f_at_12>, <ipython-input-3-...>.
bool is_pseudo_file(std::string_view filename) { return filename.starts_with("<"); }

bool is_python_file(std::string_view filename) {
  return filename.ends_with(".py") || filename.ends_with(".pyx") || is_pseudo_file(filename);
}

// Any directory of the path named torchinductor_<user> (Inductor's cache, on Linux under /tmp,
// on Windows under %TEMP%), whichever separator the recording OS used.
bool in_inductor_cache(std::string_view filename) {
  size_t start = 0;
  while (start < filename.size()) {
    const size_t end = std::min(filename.find_first_of("/\\", start), filename.size());
    if (filename.substr(start, end - start).starts_with("torchinductor_") && end < filename.size())
      return true;
    start = end + 1;
  }
  return false;
}

// Code torch.compile (or exec) made at run time. <frozen ...> is the interpreter's own import
// machinery and a notebook cell (<ipython-input-...>) is the user's code: neither is generated.
bool is_generated_file(std::string_view filename) {
  if (in_inductor_cache(filename)) return true;
  return is_pseudo_file(filename) && !filename.starts_with("<frozen") &&
         !filename.starts_with("<ipython-input");
}

FrameKind classify_python(std::string_view filename) {
  if (is_generated_file(filename)) return FrameKind::Generated;
  const std::string path = normalized_path(filename);
  if (filename.starts_with("<frozen") || in_package(path, "torch") || in_package(path, "functorch") ||
      is_stdlib(path))
    return FrameKind::Internal;
  for (const std::string& package : wrapper_libraries()) {
    if (in_package(path, package)) return FrameKind::Wrapper;
  }
  return FrameKind::User;
}

// "torch::autograd::generated::BmmBackward0::apply(...)" -> "BmmBackward0"; also
// AccumulateGrad, CopyBackwards, PyNode (a custom Function; its Python backward is user code).
std::string_view autograd_node(std::string_view name) {
  const size_t apply = name.find("::apply(");
  if (apply == std::string_view::npos || !name.starts_with("torch::autograd::")) return {};
  const std::string_view owner = name.substr(0, apply);
  if (owner.find('(') != std::string_view::npos) return {};  // "::apply(" inside an argument list
  const size_t template_start = owner.find('<');
  const std::string_view plain = owner.substr(0, template_start);
  const size_t start = plain.rfind("::");
  const std::string_view node = plain.substr(start + 2);
  const bool engine =
      node == "Node" || node == "Engine" || plain.find("::generated::details::") != std::string_view::npos;
  return engine || node.empty() ? std::string_view() : node;
}

// "at::_ops::sum_dim_IntList::call" -> "sum_dim_IntList": the dispatcher's entry for an operator.
std::string_view ops_entry(std::string_view function) {
  if (!function.starts_with("at::_ops::") || !function.ends_with("::call")) return {};
  const std::string_view op = function.substr(10, function.size() - 16);
  return op.find("::") == std::string_view::npos ? op : std::string_view();
}

// The operator an ATen function implements: "at::native::bmm" / "at::bmm" / "at::_sum_to<T>" ->
// "bmm" / "_sum_to"; empty for helpers in nested namespaces (at::detail::, at::meta::...).
std::string_view aten_function(std::string_view function) {
  if (const std::string_view op = ops_entry(function); !op.empty()) return op;
  std::string_view rest;
  if (function.starts_with("aten::")) {  // short_function_name's form of an at::_ops entry
    rest = function.substr(6);
  } else if (function.starts_with("at::native::")) {
    rest = function.substr(12);
  } else if (function.starts_with("at::")) {
    rest = function.substr(4);
  }
  rest = rest.substr(0, rest.find('<'));
  return rest.find("::") == std::string_view::npos && rest.find('(') == std::string_view::npos
             ? rest
             : std::string_view();
}

FrameKind classify_native(std::string_view name) {
  if (!autograd_node(name).empty()) return FrameKind::AutogradNode;
  const std::string function = short_function_name(name);
  const std::string_view op = aten_function(function);
  if (!op.empty() && !contains_any(op, kFactoryParts)) return FrameKind::Operator;
  return FrameKind::Internal;
}

struct WrapperList {
  std::mutex mutex;
  std::shared_ptr<const std::vector<std::string>> packages =
      std::make_shared<const std::vector<std::string>>(default_wrapper_libraries());
  std::atomic<uint64_t> generation{0};
};

WrapperList& wrapper_list() {
  static WrapperList list;
  return list;
}

// Index of the ')' matching the '(' that ends `text`, scanning back; npos if unbalanced.
size_t trailing_parens_start(std::string_view text) {
  int depth = 0;
  for (size_t i = text.size(); i-- > 0;) {
    if (text[i] == ')') ++depth;
    if (text[i] == '(' && --depth == 0) return i;
  }
  return std::string_view::npos;
}

}  // namespace

std::vector<std::string> default_wrapper_libraries() { return {"einops", "opt_einsum", "accelerate"}; }

std::vector<std::string> wrapper_libraries() {
  WrapperList& list = wrapper_list();
  const std::lock_guard lock(list.mutex);
  return *list.packages;
}

void set_wrapper_libraries(std::vector<std::string> packages) {
  WrapperList& list = wrapper_list();
  const std::lock_guard lock(list.mutex);
  list.packages = std::make_shared<const std::vector<std::string>>(std::move(packages));
  list.generation.fetch_add(1);
}

std::string join_packages(const std::vector<std::string>& packages) {
  std::string text;
  for (const std::string& package : packages) text += (text.empty() ? "" : ", ") + package;
  return text;
}

std::vector<std::string> split_packages(std::string_view text) {
  std::vector<std::string> packages;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    std::string_view item = text.substr(start, comma - start);
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
    if (!item.empty()) packages.emplace_back(item);
    start = comma + 1;
  }
  return packages;
}

uint64_t wrapper_libraries_generation() { return wrapper_list().generation.load(); }

FrameKind classify_frame(std::string_view name, std::string_view filename) {
  if (is_python_file(filename)) return classify_python(filename);
  if (is_hidden_native(name, filename)) return FrameKind::Hidden;
  return classify_native(name);
}

size_t location_frame_index(size_t count, const std::function<FrameKind(size_t)>& kind_of) {
  size_t first_operator = count, first_shown = count, first_generated = count;
  for (size_t i = 0; i < count; ++i) {
    const FrameKind kind = kind_of(i);
    if (kind == FrameKind::User || kind == FrameKind::AutogradNode) return i;
    if (kind == FrameKind::Operator) first_operator = std::min(first_operator, i);
    if (kind != FrameKind::Hidden && kind != FrameKind::Generated) first_shown = std::min(first_shown, i);
    if (kind == FrameKind::Generated) first_generated = std::min(first_generated, i);
  }
  if (first_operator < count) return first_operator;
  if (first_shown < count) return first_shown;
  if (first_generated < count) return first_generated;  // nothing else to name
  return 0;  // every frame hidden (or none): the innermost, so a stack never loses its location
}

size_t compiled_frame_index(size_t count, size_t location, const std::function<FrameKind(size_t)>& kind_of) {
  for (size_t i = 0; i < std::min(count, location); ++i) {
    if (kind_of(i) == FrameKind::Generated) return i;
  }
  return count;
}

std::string short_function_name(std::string_view name) {
  if (const std::string_view node = autograd_node(name); !node.empty()) return std::string(node);
  std::string_view text = name;
  if (const size_t clone = text.find(" [clone "); clone != std::string_view::npos)
    text = text.substr(0, clone);
  for (std::string_view qualifier : {" const", " &&", " &", " volatile"}) {
    if (text.ends_with(qualifier)) text.remove_suffix(qualifier.size());
  }
  if (text.ends_with(")")) {
    if (const size_t open = trailing_parens_start(text); open != std::string_view::npos)
      text = text.substr(0, open);
  }
  // Drop a return type ("at::TensorBase at::detail::f<long>"): the last space outside <...> and
  // (...) ("(anonymous namespace)" has one).
  int depth = 0;
  for (size_t i = text.size(); i-- > 0;) {
    if (text[i] == '>' || text[i] == ')') ++depth;
    if (text[i] == '<' || text[i] == '(') --depth;
    if (text[i] == ' ' && depth == 0 && text.find("operator") == std::string_view::npos) {
      text = text.substr(i + 1);
      break;
    }
  }
  if (const std::string_view op = ops_entry(text); !op.empty()) return "aten::" + std::string(op);
  return std::string(text);
}

std::string location_label(std::string_view name, std::string_view filename, int64_t line) {
  // Native frames carry no useful line (0): their short function name says more than "??:0".
  const bool no_source = line == 0 && !is_python_file(filename);
  if (no_source && !name.empty()) return short_function_name(name);
  std::string text(filename);
  text += ':';
  text += std::to_string(line);
  text += " (";
  text += name;
  text += ')';
  return text;
}

}  // namespace snapscope
