#include <doctest/doctest.h>

#include <vector>

#include "core/view/stack_format.h"

using namespace snapscope;

TEST_CASE("the frame filter includes memory_viz's list") {
  CHECK(is_noise_frame("torch::unwind::unwind()", "??"));
  CHECK(is_noise_frame("_PyEval_EvalFrameDefault", "Python/ceval.c"));
  CHECK(is_noise_frame("f", "/usr/include/python3.10/cpython/abstract.h"));
  CHECK(is_noise_frame("call", "aten/src/ATen/core/boxing/KernelFunction.h"));
  CHECK(is_noise_frame("__libc_start_main", "libc.so"));
  CHECK_FALSE(is_noise_frame("forward", "/home/me/model.py"));
  CHECK_FALSE(is_noise_frame("empty_cache", "torch/cuda/memory.py"));
}

TEST_CASE("elide_repeats collapses runs of three or more") {
  const std::vector<std::string> lines = {"a", "b", "b", "c", "c", "c", "c", "a"};
  const std::vector<std::string> expected = {"a", "b", "b", "c", "<repeats 3 times>", "a"};
  CHECK(elide_repeats(lines) == expected);
  CHECK(elide_repeats(std::vector<std::string>{}).empty());
}

TEST_CASE("stack_lines filters unless asked for every frame") {
  const std::vector<FrameText> frames = {
      {"malloc", "c10/cuda/CUDACachingAllocator.cpp", 10, "", "", "", ""},
      {"_PyEval_EvalFrameDefault", "Python/ceval.c", 1, "", "", "", ""},
      {"forward", "/work/model.py", 42, "call_function", "mm_1", "aten.mm", ""},
  };
  const auto filtered = stack_lines(frames, false);  // the allocator is hidden too
  REQUIRE(filtered.size() == 1);
  CHECK(filtered[0].starts_with("/work/model.py:42:forward\n"));
  CHECK(filtered[0].find("mm_1") != std::string::npos);
  CHECK(stack_lines(frames, true).size() == 3);
}

TEST_CASE("stack_lines names C++ frames as the location rule does, unless every frame is asked for") {
  const std::vector<FrameText> frames = {
      {"torch::autograd::generated::BmmBackward0::apply(std::vector<at::Tensor, std::allocator<at::Tensor> "
       ">&&)",
       "??", 0, "", "", "", ""},
      {"step", "/home/u/optim/optimizers.py", 82, "", "", "", ""},
  };
  const auto shown = stack_lines(frames, false);
  REQUIRE(shown.size() == 2);
  CHECK(shown[0] == "BmmBackward0");
  CHECK(shown[1] == "/home/u/optim/optimizers.py:82:step");
  const auto all = stack_lines(frames, true);
  CHECK(all[0].starts_with("??:0:torch::autograd::generated::BmmBackward0::apply("));
}

TEST_CASE("first_user_frame skips allocator, torch internals and noise") {
  const std::vector<FrameText> frames = {
      {"malloc", "c10/cuda/CUDACachingAllocator.cpp", 1, "", "", "", ""},
      {"_call_impl", "/usr/lib/python3/site-packages/torch/nn/modules/module.py", 2, "", "", "", ""},
      {"PyObject_Call", "Objects/call.c", 3, "", "", "", ""},
      {"forward", "train.py", 4, "", "", "", ""},
  };
  CHECK(first_user_frame(frames) == 3);
  const std::vector<FrameText> native_only = {{"PyEval_X", "ceval.c", 1, "", "", "", ""},
                                              {"malloc", "alloc.cpp", 1, "", "", "", ""}};
  CHECK(first_user_frame(native_only) == 1);
  CHECK(first_user_frame(std::vector<FrameText>{}) == 0);
}
