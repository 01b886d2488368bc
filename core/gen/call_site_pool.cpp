#include "core/gen/call_site_pool.h"

#include <algorithm>
#include <array>

namespace snapscope::gen {
namespace {

constexpr size_t kSitesPerKind = 48;
constexpr size_t kMaxFrames = 150;

constexpr std::array kAtenOps = {"mm",
                                 "addmm",
                                 "bmm",
                                 "add",
                                 "mul",
                                 "div",
                                 "gelu",
                                 "softmax",
                                 "layer_norm",
                                 "native_dropout",
                                 "embedding",
                                 "index",
                                 "cat",
                                 "clone",
                                 "linalg_vector_norm",
                                 "sqrt",
                                 "addcmul",
                                 "addcdiv",
                                 "lerp",
                                 "_foreach_mul",
                                 "scaled_dot_product_attention",
                                 "transpose",
                                 "contiguous",
                                 "sum",
                                 "mean"};
constexpr std::array kPackages = {"models", "layers", "attention", "data",     "train",
                                  "optim",  "utils",  "kernels",   "parallel", "eval"};
constexpr std::array kModules = {"transformer", "block",    "mlp",    "norm",  "rotary",   "embedding",
                                 "loss",        "schedule", "engine", "hooks", "sharding", "checkpoint",
                                 "mixers",      "heads",    "fused",  "io",    "metrics",  "config",
                                 "tokenizer",   "adapters", "moe",    "cache", "loop",     "runner"};
constexpr std::array kFunctions = {
    "forward",      "_forward_impl", "__call__",    "apply",  "_attn",   "_mlp",
    "project",      "split_heads",   "merge_heads", "norm",   "rotate",  "compute_loss",
    "step",         "run_batch",     "train_step",  "_inner", "wrapper", "decorate_context",
    "checkpointed", "dispatch"};
constexpr std::array kInterpreterFrames = {"_PyEval_EvalFrameDefault", "method_vectorcall.llvm.1227580430977",
                                           "_PyObject_Call_Prepend", "slot_tp_call",
                                           "_PyFunction_Vectorcall"};

}  // namespace

CallSitePool::CallSitePool(uint64_t seed) {
  Rng rng(derive_seed(seed, 0x57ac));
  build_python_pool(rng);
  sites_by_kind_.resize(static_cast<size_t>(SiteKind::Count));
  for (size_t kind = 0; kind < sites_by_kind_.size(); ++kind) {
    for (size_t i = 0; i < kSitesPerKind; ++i) {
      sites_by_kind_[kind].push_back(static_cast<uint32_t>(stacks_.size()));
      stacks_.push_back(make_stack(static_cast<SiteKind>(kind), rng));
    }
  }
}

uint32_t CallSitePool::pick(SiteKind kind, uint32_t layer, Rng& rng) const {
  const auto& sites = sites_by_kind_[static_cast<size_t>(kind)];
  // Each layer uses a window of 6 sites, so a layer's ops repeat their stacks every iteration.
  const size_t window = (static_cast<size_t>(layer) * 5) % sites.size();
  return sites[(window + rng.index(6)) % sites.size()];
}

uint32_t CallSitePool::frame(std::string name, std::string filename, int64_t line) {
  auto key = std::make_tuple(name, filename, line);
  if (auto it = frame_index_.find(key); it != frame_index_.end()) return it->second;
  const auto id = static_cast<uint32_t>(frames_.size());
  frames_.push_back(FrameSpec{std::move(name), std::move(filename), line});
  frame_index_.emplace(std::move(key), id);
  return id;
}

void CallSitePool::build_python_pool(Rng& rng) {
  for (const char* package : kPackages) {
    for (size_t m = 0; m < 8; ++m) {
      const std::string file = std::string("/home/user/project/src/") + package + "/" +
                               kModules[rng.index(kModules.size())] + ".py";
      for (size_t f = 0; f < 4; ++f)
        python_frames_.push_back(
            frame(kFunctions[rng.index(kFunctions.size())], file, static_cast<int64_t>(rng.range(12, 900))));
    }
  }
  const std::string module_py = "/opt/venv/lib/python3.11/site-packages/torch/nn/modules/module.py";
  module_frames_ = {native(kInterpreterFrames[1]),
                    frame("_call_impl", module_py, 1750),
                    native(kInterpreterFrames[0]),
                    native(kInterpreterFrames[1]),
                    frame("_wrapped_call_impl", module_py, 1739),
                    native(kInterpreterFrames[0]),
                    native(kInterpreterFrames[2]),
                    native(kInterpreterFrames[3])};
}

std::vector<uint32_t> CallSitePool::allocator_prefix() {
  static constexpr std::array kPrefix = {
      "torch::unwind::unwind()",
      "torch::CapturedTraceback::gather(bool, bool, bool)",
      "torch::cuda::(anonymous namespace)::gather_with_cpp()",
      "c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc(signed char, unsigned long, "
      "CUstream_st*)",
      "c10::cuda::CUDACachingAllocator::Native::NativeCachingAllocator::malloc(void**, signed char, unsigned "
      "long, CUstream_st*)",
      "c10::cuda::CUDACachingAllocator::Native::NativeCachingAllocator::allocate(unsigned long)",
      "at::detail::empty_generic(c10::ArrayRef<long>, c10::Allocator*, c10::DispatchKeySet, c10::ScalarType, "
      "std::optional<c10::MemoryFormat>)",
      "at::detail::empty_cuda(c10::ArrayRef<long>, c10::TensorOptions const&)"};
  std::vector<uint32_t> out;
  for (const char* name : kPrefix) out.push_back(native(name));
  return out;
}

std::vector<uint32_t> CallSitePool::aten_op_frames(const std::string& op, Rng& rng) {
  const std::string args = "(at::Tensor const&, at::Tensor const&)";
  std::vector<uint32_t> out = {
      frame("at::(anonymous namespace)::create_out(c10::ArrayRef<long>, c10::ArrayRef<long>, "
            "c10::TensorOptions const&)",
            "RegisterCUDA.cpp", 0),
      native("at::(anonymous namespace)::structured_" + op + "_out_functional::set_output_raw_strided"),
      native("at::meta::structured_" + op + "::meta" + args),
      frame("at::(anonymous namespace)::wrapper_CUDA_" + op + args, "RegisterCUDA.cpp", 0),
      native("at::_ops::" + op + "::redispatch(c10::DispatchKeySet, at::Tensor const&, at::Tensor const&)"),
      frame("torch::autograd::VariableType::(anonymous namespace)::" + op + args, "VariableType_2.cpp", 0),
      native("at::_ops::" + op + "::call" + args)};
  const size_t extra = rng.range(0, 6);  // dispatcher/functionalization hops vary per op
  for (size_t i = 0; i < extra; ++i)
    out.push_back(native("c10::impl::BoxedKernelWrapper<" + op + ">::call#" + std::to_string(i)));
  out.push_back(frame("torch::autograd::THPVariable_" + op + "(_object*, _object*, _object*)",
                      "python_torch_functions_0.cpp", 0));
  return out;
}

std::vector<uint32_t> CallSitePool::python_path(size_t depth, Rng& rng) {
  std::vector<uint32_t> out;
  for (size_t level = 0; level < depth; ++level) {
    out.push_back(python_frames_[rng.index(python_frames_.size())]);
    out.insert(out.end(), module_frames_.begin(), module_frames_.end());
  }
  return out;
}

std::vector<uint32_t> CallSitePool::startup_suffix() {
  static constexpr std::array kStartup = {"PyEval_EvalCode",
                                          "run_eval_code_obj",
                                          "run_mod.llvm.919688808",
                                          "pyrun_file",
                                          "_PyRun_SimpleFileObject",
                                          "_PyRun_AnyFileObject",
                                          "pymain_run_file_obj",
                                          "pymain_run_file",
                                          "Py_RunMain",
                                          "pymain_main",
                                          "Py_BytesMain",
                                          "__libc_start_main",
                                          "_start"};
  std::vector<uint32_t> out = {
      frame("train_step", "/home/user/project/train.py", 212), native(kInterpreterFrames[0]),
      frame("main", "/home/user/project/train.py", 388), native(kInterpreterFrames[0]),
      frame("<module>", "/home/user/project/train.py", 431)};
  for (const char* name : kStartup) out.push_back(native(name));
  return out;
}

std::vector<uint32_t> CallSitePool::autograd_engine_frames() {
  static constexpr std::array kEngine = {
      "torch::autograd::Node::operator()(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)",
      "torch::autograd::call_function(std::shared_ptr<torch::autograd::GraphTask>&, torch::autograd::Node*, "
      "torch::autograd::InputBuffer&)",
      "torch::autograd::Engine::evaluate_function(std::shared_ptr<torch::autograd::GraphTask>&, "
      "torch::autograd::Node*, torch::autograd::InputBuffer&, std::shared_ptr<torch::autograd::ReadyQueue> "
      "const&)",
      "torch::autograd::Engine::thread_main(std::shared_ptr<torch::autograd::GraphTask> const&)",
      "torch::autograd::Engine::execute_with_graph_task(std::shared_ptr<torch::autograd::GraphTask> const&, "
      "std::shared_ptr<torch::autograd::Node>, torch::autograd::InputBuffer&&)",
      "torch::autograd::python::PythonEngine::execute_with_graph_task",
      "torch::autograd::Engine::execute(std::vector<torch::autograd::Edge> const&, ...)",
      "THPEngine_run_backward(_object*, _object*, _object*)"};
  std::vector<uint32_t> out;
  for (const char* name : kEngine) out.push_back(native(name));
  const std::string graph_py = "/opt/venv/lib/python3.11/site-packages/torch/autograd/graph.py";
  const std::string init_py = "/opt/venv/lib/python3.11/site-packages/torch/autograd/__init__.py";
  const std::string tensor_py = "/opt/venv/lib/python3.11/site-packages/torch/_tensor.py";
  for (uint32_t f : {frame("_engine_run_backward", graph_py, 825), native(kInterpreterFrames[0]),
                     frame("backward", init_py, 347), native(kInterpreterFrames[0]),
                     frame("backward", tensor_py, 626), native(kInterpreterFrames[0])})
    out.push_back(f);
  return out;
}

std::vector<uint32_t> CallSitePool::module_to_frames() {
  const std::string module_py = "/opt/venv/lib/python3.11/site-packages/torch/nn/modules/module.py";
  return {frame("convert", module_py, 1355), native(kInterpreterFrames[0]), frame("_apply", module_py, 955),
          native(kInterpreterFrames[0]),     frame("to", module_py, 1369),  native(kInterpreterFrames[0])};
}

std::vector<uint32_t> CallSitePool::make_stack(SiteKind kind, Rng& rng) {
  std::vector<uint32_t> stack = allocator_prefix();
  const std::string op = kAtenOps[rng.index(kAtenOps.size())];
  const auto append = [&stack](const std::vector<uint32_t>& part) {
    stack.insert(stack.end(), part.begin(), part.end());
  };
  append(aten_op_frames(op, rng));
  const bool backward = kind == SiteKind::BackwardGradient || kind == SiteKind::BackwardTemporary;
  if (backward) {
    append(autograd_engine_frames());
  } else {
    const bool optimizer = kind == SiteKind::OptimizerState || kind == SiteKind::OptimizerTemporary;
    // Parameters are copied onto the GPU by model.to(device), called from the user's setup code.
    if (kind == SiteKind::Parameter) append(module_to_frames());
    const size_t depth = optimizer ? rng.range(1, 2) : rng.range(1, 9);
    append(python_path(depth, rng));
  }
  append(startup_suffix());
  if (stack.size() > kMaxFrames) stack.resize(kMaxFrames);
  return stack;
}

}  // namespace snapscope::gen
