// The location rule and the frame filter on synthetic stacks shaped like real traces recorded
// with C++ frames (innermost first, as torch writes them).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/analysis/frame_kind.h"
#include "core/cursor/allocation_search.h"
#include "core/view/stack_format.h"

using namespace snapscope;

namespace {

FrameText frame(std::string name, std::string file = "??", int64_t line = 0) {
  return {std::move(name), std::move(file), line, "", "", "", ""};
}

// The allocator, tensor factory and dispatcher frames every CUDA allocation starts with.
std::vector<FrameText> allocator_prefix() {
  return {
      frame("torch::unwind::unwind()"),
      frame("torch::CapturedTraceback::gather(bool, bool, bool)"),
      frame("torch::cuda::(anonymous namespace)::gather_with_cpp()", "memory_snapshot.cpp"),
      frame("c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc(signed char, unsigned "
            "long)",
            "CUDACachingAllocator.cpp"),
      frame("c10::cuda::CUDACachingAllocator::Native::NativeCachingAllocator::allocate(unsigned long)", ""),
      frame("at::TensorBase at::detail::_empty_generic<long>(c10::ArrayRef<long>, c10::Allocator*)", ""),
      frame("at::detail::empty_cuda(c10::ArrayRef<long>, c10::TensorOptions const&)"),
      frame("at::(anonymous namespace)::wrapper_CUDA_memory_format_empty(c10::ArrayRef<c10::SymInt>)",
            "RegisterCUDA.cpp"),
      frame("c10::impl::wrap_kernel_functor_unboxed_<c10::impl::detail::WrapFunctionIntoFunctor_<>>::call()",
            "RegisterCUDA.cpp"),
      frame("at::_ops::empty_memory_format::call(c10::ArrayRef<c10::SymInt>)"),
      frame("at::empty_like(at::Tensor const&, c10::TensorOptions, std::optional<c10::MemoryFormat>)", "")};
}

std::vector<FrameText> with_prefix(std::vector<FrameText> rest) {
  std::vector<FrameText> frames = allocator_prefix();
  frames.insert(frames.end(), rest.begin(), rest.end());
  return frames;
}

std::string location_of(const std::vector<FrameText>& frames) {
  const FrameText& chosen = frames.at(first_user_frame(frames));
  return location_label(chosen.name, chosen.filename, chosen.line);
}

const std::string kSitePackages = "/venv/lib/python3.13/site-packages/";

}  // namespace

TEST_CASE("the filter hides allocator, dispatcher, boxing, CPython, libc and unresolved frames") {
  for (const FrameText& f : allocator_prefix()) {
    if (f.name.starts_with("at::detail::") || f.name.starts_with("at::TensorBase") ||
        f.name.starts_with("at::empty"))
      CHECK_FALSE(is_noise_frame(f.name, f.filename));  // tensor factories: shown, never the location
    else
      CHECK_MESSAGE(is_noise_frame(f.name, f.filename), f.name);
  }
  for (const char* name : {"_PyEval_EvalFrameDefault", "method_vectorcall.llvm.12275804309777372242",
                           "pymain_run_file", "Py_RunMain", "PyEval_EvalCode", "cfunction_call",
                           "slot_tp_call", "_PyObject_Call_Prepend", "__libc_start_main", "__xmknodat", "??",
                           "", "execute_native_thread_routine", "pthread_condattr_setpshared",
                           "torch::autograd::Engine::thread_main(std::shared_ptr<GraphTask> const&)",
                           "torch::autograd::Node::operator()(std::vector<at::Tensor>&&)",
                           "torch::autograd::THPVariable_einsum(_object*, _object*, _object*)"})
    CHECK_MESSAGE(is_noise_frame(name, "??"), name);
  CHECK(is_noise_frame("f", "C:\\src\\build\\aten\\src\\ATen\\RegisterCUDA.cpp"));
  // Python frames are judged by their file, never by a function name that looks like libc's.
  CHECK_FALSE(is_noise_frame("on_train_start", "/home/me/train.py"));
  CHECK_FALSE(is_noise_frame("clone_weights", "/home/me/train.py"));
  CHECK_FALSE(
      is_noise_frame("torch::autograd::generated::BmmBackward0::apply(std::vector<at::Tensor>&&)", "??"));
  CHECK_FALSE(is_noise_frame("at::native::bmm(at::Tensor const&, at::Tensor const&)", "??"));
}

TEST_CASE("a forward allocation's location is the innermost user line, past torch and einops") {
  const auto frames = with_prefix({
      frame("at::native::einsum(std::basic_string_view<char>, c10::ArrayRef<at::Tensor>)"),
      frame("torch::autograd::THPVariable_einsum(_object*, _object*, _object*)",
            "python_torch_functions_0.cpp"),
      frame("einsum", kSitePackages + "torch/functional.py", 407),
      frame("_PyEval_EvalFrameDefault"),
      frame("einsum", kSitePackages + "einops/_backends.py", 288),
      frame("einsum", kSitePackages + "einops/einops.py", 907),
      frame("scaled_dot_product_attention", "/home/me/cs336_basics/transformer.py", 147),
      frame("forward", "/home/me/cs336_basics/transformer.py", 208),
      frame("_call_impl", kSitePackages + "torch/nn/modules/module.py", 1750),
      frame("<module>", "/home/me/benchmark.py", 441),
      frame("__libc_start_main"),
  });
  CHECK(location_of(frames) == "/home/me/cs336_basics/transformer.py:147 (scaled_dot_product_attention)");
}

TEST_CASE("the wrapper list is editable and defaults to thin wrappers such as einops") {
  const auto defaults = default_wrapper_libraries();
  CHECK(std::find(defaults.begin(), defaults.end(), "einops") != defaults.end());
  CHECK(classify_frame("einsum", kSitePackages + "einops/einops.py") == FrameKind::Wrapper);
  set_wrapper_libraries({"mywrap"});
  CHECK(classify_frame("einsum", kSitePackages + "einops/einops.py") == FrameKind::User);
  CHECK(classify_frame("call", kSitePackages + "mywrap/core.py") == FrameKind::Wrapper);
  CHECK(classify_frame("call", kSitePackages + "mywrap.py") == FrameKind::Wrapper);
  set_wrapper_libraries(defaults);
  CHECK(classify_frame("einsum", kSitePackages + "einops/einops.py") == FrameKind::Wrapper);
}

TEST_CASE("model libraries such as transformers are user code; torch, CPython's stdlib are not") {
  CHECK(classify_frame("forward", kSitePackages + "transformers/models/gpt2/modeling_gpt2.py") ==
        FrameKind::User);
  CHECK(classify_frame("_call_impl", kSitePackages + "torch/nn/modules/module.py") == FrameKind::Internal);
  CHECK(classify_frame("f", "torch/_tensor.py") == FrameKind::Internal);
  CHECK(classify_frame("inner", "/usr/lib/python3.10/contextlib.py") == FrameKind::Internal);
  CHECK(classify_frame("_call_with_frames_removed", "<frozen importlib._bootstrap>") == FrameKind::Internal);
  CHECK(classify_frame("f", "/home/me/lib/python_tools/model.py") == FrameKind::User);
  const auto frames = with_prefix({
      frame("linear", kSitePackages + "torch/nn/modules/linear.py", 125),
      frame("forward", kSitePackages + "transformers/models/gpt2/modeling_gpt2.py", 321),
      frame("train_step", "/home/me/train.py", 50),
  });
  CHECK(location_of(frames) == kSitePackages + "transformers/models/gpt2/modeling_gpt2.py:321 (forward)");
}

TEST_CASE("Windows paths: torch, stdlib and wrappers are recognised with backslashes") {
  const std::string venv = "C:\\Users\\me\\venv\\Lib\\site-packages\\";
  CHECK(classify_frame("_call_impl", venv + "torch\\nn\\modules\\module.py") == FrameKind::Internal);
  CHECK(classify_frame("einsum", venv + "einops\\einops.py") == FrameKind::Wrapper);
  CHECK(classify_frame("inner", "C:\\Python311\\Lib\\contextlib.py") == FrameKind::Internal);
  const auto frames = with_prefix({
      frame("einsum", venv + "torch\\functional.py", 407),
      frame("einsum", venv + "einops\\einops.py", 907),
      frame("forward", "C:\\Users\\me\\project\\model.py", 12),
  });
  CHECK(location_of(frames) == "C:\\Users\\me\\project\\model.py:12 (forward)");
}

TEST_CASE("a backward allocation names its autograd node, even under a user loss.backward() line") {
  const auto engine_thread = with_prefix({
      frame("at::native::bmm_out_cuda(at::Tensor const&, at::Tensor const&, at::Tensor&)"),
      frame("torch::autograd::generated::details::bmm_backward(at::Tensor const&)", ""),
      frame("torch::autograd::generated::BmmBackward0::apply(std::vector<at::Tensor>&&)"),
      frame("torch::autograd::Node::operator()(std::vector<at::Tensor>&&)", ""),
      frame("torch::autograd::Engine::thread_main(std::shared_ptr<torch::autograd::GraphTask> const&)"),
      frame("execute_native_thread_routine", "thread48.o"),
      frame("__xmknodat"),
  });
  CHECK(location_of(engine_thread) == "BmmBackward0");
  auto main_thread = engine_thread;
  main_thread.push_back(frame("_engine_run_backward", kSitePackages + "torch/autograd/graph.py", 823));
  main_thread.push_back(frame("backward", kSitePackages + "torch/_tensor.py", 626));
  main_thread.push_back(frame("train_step", "/home/me/train.py", 88));
  CHECK(location_of(main_thread) == "BmmBackward0");
  CHECK(location_of(with_prefix({frame(
            "torch::autograd::AccumulateGrad::apply(std::vector<at::Tensor>&&)")})) == "AccumulateGrad");
}

TEST_CASE("a C++-only stack without an autograd node names its ATen operator, not a factory") {
  const auto frames = with_prefix({
      frame("at::native::empty_like(at::Tensor const&)"),
      frame("at::native::clone(at::Tensor const&, std::optional<c10::MemoryFormat>)"),
      frame("at::native::reshape_symint(at::Tensor const&, c10::ArrayRef<c10::SymInt>)"),
      frame("__libc_start_main"),
  });
  CHECK(location_of(frames) == "at::native::clone");
  // Only hidden frames: the innermost one, so a stack always has a location.
  const std::vector<FrameText> hidden = {frame("??"), frame("_start")};
  CHECK(first_user_frame(hidden) == 0);
  CHECK(first_user_frame(std::vector<FrameText>{}) == 0);
}

TEST_CASE("location labels: Python frames keep file:line (function), native frames their short name") {
  CHECK(location_label("forward", "/a/model.py", 79) == "/a/model.py:79 (forward)");
  CHECK(location_label("at::TensorBase at::detail::_empty_generic<long>(c10::ArrayRef<long>)", "??", 0) ==
        "at::detail::_empty_generic<long>");
  CHECK(location_label("at::native::sumproduct_pair(at::Tensor const&, bool) [clone .constprop.0]",
                       "Linear.cpp", 0) == "at::native::sumproduct_pair");
  CHECK(location_label("torch::autograd::generated::BmmBackward0::apply(std::vector<at::Tensor>&&)", "??",
                       0) == "BmmBackward0");
  CHECK(location_label("kernel", "kernels.cu", 12) == "kernels.cu:12 (kernel)");
  CHECK(location_label("at::native::(anonymous namespace)::index_put_kernel(at::Tensor&)", "??", 0) ==
        "at::native::(anonymous namespace)::index_put_kernel");
}

TEST_CASE("forward_frames: a backward allocation's location names the forward op's user line") {
  const auto forward =
      parse_frame_lines("??:0:at::native::bmm(at::Tensor const&)\n" + kSitePackages +
                        "torch/nn/functional.py:2144:linear\nC:\\proj\\model.py:79:forward\nweird line\n");
  REQUIRE(forward.size() == 4);
  CHECK(forward[2].filename == "C:\\proj\\model.py");
  CHECK(forward[2].line == 79);
  CHECK(forward[2].name == "forward");
  CHECK(forward[3].name == "weird line");
  CHECK(forward[3].filename.empty());
  const auto backward =
      with_prefix({frame("torch::autograd::generated::BmmBackward0::apply(std::vector<at::Tensor>&&)"),
                   frame("torch::autograd::Engine::thread_main()")});
  CHECK(stack_location(backward, forward) == "BmmBackward0 <- C:\\proj\\model.py:79 (forward)");
  CHECK(stack_location(backward, {}) == "BmmBackward0");
  // A forward allocation keeps its own user line; forward frames only annotate autograd nodes.
  const auto forward_alloc = with_prefix({frame("forward", "/home/me/model.py", 12)});
  CHECK(stack_location(forward_alloc, forward) == "/home/me/model.py:12 (forward)");
}

TEST_CASE("frame search parses the forms the UI prints") {
  const auto plain = parse_frame_location("file.py:79");
  REQUIRE(plain);
  CHECK(plain->file == "file.py");
  CHECK(plain->line == 79);
  CHECK(plain->function.empty());
  const auto full = parse_frame_location("  /home/me/file.py:79 (forward) ");
  REQUIRE(full);
  CHECK(full->file == "/home/me/file.py");
  CHECK(full->line == 79);
  CHECK(full->function == "forward");
  CHECK(parse_frame_location("C:\\me\\file.py:7 (<module>)")->file == "C:\\me\\file.py");
  CHECK_FALSE(parse_frame_location("forward"));
  CHECK_FALSE(parse_frame_location("file.py:x"));
  CHECK_FALSE(parse_frame_location("BmmBackward0"));
}
