// Training stories with planted truth: each builds a trace the way PyTorch records it (stacks
// innermost first, memory from before recording on the initial stack) and checks every
// category's bytes at the peak and at the end exactly.
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "core/analysis/state_mapping.h"
#include "core/classify/classifier.h"
#include "unit/support/replay_actions.h"
#include "unit/support/test_analysis_fixtures.h"

using namespace snapscope;
using namespace snapscope::testing;

namespace {

// Frames the stories' stacks are made of.
const FakeFrame kTrain{"train_step", "/work/train.py", 40};
const FakeFrame kForward{"forward", "/work/model.py", 12};
const FakeFrame kMmBackward{"torch::autograd::generated::MmBackward0::apply(std::vector<at::Tensor>&&)", "",
                            0};
const FakeFrame kAccumulateGrad{"torch::autograd::AccumulateGrad::apply(std::vector<at::Tensor>&&)", "", 0};
const FakeFrame kToCopyBackward{
    "torch::autograd::generated::ToCopyBackward0::apply(std::vector<at::Tensor>&&)", "", 0};
const FakeFrame kUserStep{"step", "/work/my_optimizer.py", 30};
const FakeFrame kOptimizerWrapper{"wrapper", "/venv/lib/python3.11/site-packages/torch/optim/optimizer.py",
                                  487};
const FakeFrame kZeroGrad{"zero_grad", "/venv/lib/python3.11/site-packages/torch/optim/optimizer.py", 900};
const FakeFrame kModuleApply{"_apply", "/venv/lib/python3.11/site-packages/torch/nn/modules/module.py", 930};

// A trace under construction: stacks, elements and actions, with one event per action.
class Story {
 public:
  StackId stack(std::vector<FakeFrame> frames) {
    std::vector<FrameId> ids;
    for (const FakeFrame& frame : frames) {
      stacks_.frames.push_back(frame);
      ids.push_back(static_cast<FrameId>(stacks_.frames.size() - 1));
    }
    stacks_.stacks.push_back(ids);
    return static_cast<StackId>(stacks_.stacks.size() - 1);
  }
  // A block of the segment snapshot, alive before and after the trace (its stack: the block's).
  uint32_t before(uint64_t size, StackId stack = 0) {
    return initial(element(size, stack, Origin::SnapshotBlock));
  }
  // Allocated before recording, freed in the trace by free() (its stack: the free's).
  uint32_t freed_before(uint64_t size, StackId free_stack) {
    return initial(element(size, free_stack, Origin::FreeWithoutAlloc));
  }
  uint32_t alloc(uint64_t size, StackId stack) {
    input_.elements.push_back(element(size, stack));
    const auto elem = static_cast<uint32_t>(input_.elements.size() - 1);
    act(elem);
    return elem;
  }
  void free(uint32_t elem) { act(elem); }
  size_t actions() const { return input_.actions.size(); }
  const FakeStackSource& stacks() const { return stacks_; }
  ReplayInput input() const { return input_; }

 private:
  uint32_t initial(ReplayElement e) {
    input_.elements.push_back(e);
    const auto elem = static_cast<uint32_t>(input_.elements.size() - 1);
    input_.initial_stack.push_back(elem);
    return elem;
  }
  void act(uint32_t elem) {
    push_action(input_, elem, static_cast<EventIndex>(input_.actions.size()));
    input_.action_time_us.push_back(static_cast<int64_t>(10 * input_.actions.size()));
  }

  FakeStackSource stacks_;
  ReplayInput input_;
};

using Bytes = std::map<Category, uint64_t>;

Bytes bytes_at(const Classification& classification, const Timeline& timeline, size_t state) {
  const std::vector<uint64_t> bytes = category_bytes_at(classification, timeline, state);
  Bytes out;
  for (size_t id = 0; id < kBuiltinCategories; ++id) {
    if (bytes[id] > 0) out[static_cast<Category>(id)] = bytes[id];
  }
  return out;
}

struct Outcome {
  Bytes at_peak, at_end;
};

Outcome classify_story(const Story& story, std::span<const AnnotationRecord> annotations = {}) {
  const Timeline timeline(story.input());
  const Classification classification =
      classify_allocations({timeline, story.stacks(), annotations, nullptr});
  return {bytes_at(classification, timeline, peak_state(timeline)),
          bytes_at(classification, timeline, timeline.action_count())};
}

constexpr uint64_t kW1 = 4096 * 512, kW2 = 1024 * 512;  // two parameters' sizes

}  // namespace

TEST_CASE("story: a hand-written AdamW whose state was made before recording") {
  Story s;
  const StackId forward = s.stack({kForward, kTrain});
  const StackId backward = s.stack({kMmBackward, kTrain});
  const StackId step = s.stack({kUserStep, kOptimizerWrapper, kTrain});
  s.before(kW1);  // the parameters: no stack
  s.before(kW2);
  for (const uint64_t size : {kW1, kW1, kW2, kW2}) s.before(size, step);  // exp_avg, exp_avg_sq
  const uint32_t act = s.alloc(3000 * 512, forward);
  const uint32_t g1 = s.alloc(kW1, backward), g2 = s.alloc(kW2, backward);
  s.free(act);
  const uint32_t tmp = s.alloc(1000 * 512, step);  // the update's temporary, below the peak
  s.free(tmp);
  (void)g1;
  (void)g2;
  const Outcome out = classify_story(s);
  const Bytes expected_end = {{Category::Parameter, kW1 + kW2},
                              {Category::Gradient, kW1 + kW2},
                              {Category::OptimizerState, 2 * (kW1 + kW2)}};
  CHECK(out.at_end == expected_end);
  // The peak: the activation is still live when both gradients exist.
  Bytes expected_peak = expected_end;
  expected_peak[Category::Activation] = 3000 * 512;
  CHECK(out.at_peak == expected_peak);
}

TEST_CASE("story: mixed precision, fp32 master weights and ToCopyBackward0 gradients") {
  Story s;
  const StackId cast = s.stack({kForward, kTrain});  // the bf16 copy autocast makes in the forward
  const StackId to_copy_backward = s.stack({kToCopyBackward, kTrain});
  const StackId step = s.stack({kUserStep, kOptimizerWrapper, kTrain});
  s.before(kW1);  // fp32 master weight
  s.before(kW1, step);
  s.before(kW1, step);
  const uint32_t copy = s.alloc(kW1 / 2, cast);
  const uint32_t grad = s.alloc(kW1, to_copy_backward);  // the fp32 gradient
  s.free(copy);
  (void)grad;
  const Outcome out = classify_story(s);
  const Bytes expected_end = {
      {Category::Parameter, kW1}, {Category::Gradient, kW1}, {Category::OptimizerState, 2 * kW1}};
  CHECK(out.at_end == expected_end);
  Bytes expected_peak = expected_end;
  expected_peak[Category::Activation] = kW1 / 2;
  CHECK(out.at_peak == expected_peak);
}

TEST_CASE("story: a trace that ends inside a forward holds activations, not leaks or unknowns") {
  Story s;
  const StackId built = s.stack({kModuleApply, kTrain});  // model.to('cuda') before recording
  const StackId zero_grad = s.stack({kZeroGrad, kTrain});
  const StackId forward = s.stack({kForward, kTrain});
  s.before(kW1, built);
  const uint32_t old_grad = s.freed_before(kW1, zero_grad);  // set_to_none frees last step's grad
  s.free(old_grad);
  const uint32_t a1 = s.alloc(1000 * 512, forward);
  const uint32_t a2 = s.alloc(2000 * 512, forward);
  const uint32_t tmp = s.alloc(100 * 512, forward);
  s.free(tmp);
  (void)a1;
  (void)a2;
  const Outcome out = classify_story(s);
  const Bytes expected_end = {{Category::Parameter, kW1}, {Category::Activation, 3000 * 512}};
  CHECK(out.at_end == expected_end);
  Bytes expected_peak = {{Category::Parameter, kW1}, {Category::Gradient, kW1}};  // before zero_grad
  CHECK(out.at_peak == expected_peak);
}

TEST_CASE("story: a trace that starts inside a backward classifies what it frees") {
  Story s;
  const StackId backward = s.stack({kMmBackward, kTrain});
  const StackId accumulate = s.stack({kAccumulateGrad, kTrain});
  s.before(kW1);                                                // the parameter
  const uint32_t saved = s.freed_before(5000 * 512, backward);  // saved by the forward before recording
  const uint32_t grad = s.alloc(kW1, accumulate);
  s.free(saved);
  (void)grad;
  const Outcome out = classify_story(s);
  const Bytes expected_end = {{Category::Parameter, kW1}, {Category::Gradient, kW1}};
  CHECK(out.at_end == expected_end);
  Bytes expected_peak = expected_end;
  expected_peak[Category::Activation] = 5000 * 512;
  CHECK(out.at_peak == expected_peak);
}

TEST_CASE("story: zero_grad's free a few events before the annotation still frees a gradient") {
  Story s;
  const StackId zero_grad = s.stack({kZeroGrad, kTrain});
  const StackId forward = s.stack({kForward, kTrain});
  s.before(kW1, s.stack({kModuleApply, kTrain}));
  const uint32_t old_grad = s.freed_before(kW1, zero_grad);
  s.free(old_grad);                                  // event 0: before the annotation opens
  const uint32_t act = s.alloc(100 * 512, forward);  // event 1
  s.free(act);                                       // event 2
  // The annotation opens after the free (times 15..25 cover the action at 20 only).
  const std::vector<AnnotationRecord> annotations = {{"START", "Optimizer.zero_grad#AdamW.zero_grad", 0, 15},
                                                     {"END", "Optimizer.zero_grad#AdamW.zero_grad", 0, 25}};
  const Outcome out = classify_story(s, annotations);
  CHECK(out.at_peak == Bytes{{Category::Parameter, kW1}, {Category::Gradient, kW1}});
}

TEST_CASE("story: inference keeps its weights unknown: nothing tells them from a cache") {
  Story s;
  const StackId forward = s.stack({kForward, kTrain});
  s.before(kW1);
  s.before(kW2);
  const uint32_t tmp = s.alloc(100 * 512, forward);
  const uint32_t out_tensor = s.alloc(10 * 512, forward);
  s.free(tmp);
  (void)out_tensor;
  const Outcome out = classify_story(s);
  CHECK(out.at_end == Bytes{{Category::Unknown, kW1 + kW2 + 10 * 512}});
  CHECK(out.at_peak == Bytes{{Category::Temporary, 100 * 512}, {Category::Unknown, kW1 + kW2 + 10 * 512}});
}

TEST_CASE("story: LoRA, frozen base weights beside the adapters the backward makes gradients for") {
  Story s;
  const StackId backward = s.stack({kAccumulateGrad, kTrain});
  const StackId forward = s.stack({kForward, kTrain});
  constexpr uint64_t kAdapter = 16 * 512;
  s.before(kW1);  // frozen base weights: no gradient of their size
  s.before(kW2);
  s.before(kAdapter);  // the LoRA adapter
  const uint32_t act = s.alloc(300 * 512, forward);
  const uint32_t grad = s.alloc(kAdapter, backward);
  s.free(act);
  (void)grad;
  const Outcome out = classify_story(s);
  CHECK(out.at_end == Bytes{{Category::Parameter, kW1 + kW2 + kAdapter}, {Category::Gradient, kAdapter}});
}

TEST_CASE("story: gradients accumulated in place over micro-batches pair with their parameters") {
  Story s;
  const StackId forward = s.stack({kForward, kTrain});
  const StackId backward = s.stack({kMmBackward, kTrain});
  const StackId step = s.stack({kUserStep, kOptimizerWrapper, kTrain});
  for (const uint64_t size : {kW1, kW1, kW2, kW2}) s.before(size);        // parameters and their .grad
  for (const uint64_t size : {kW1, kW1, kW2, kW2}) s.before(size, step);  // AdamW state
  for (int micro_batch = 0; micro_batch < 4; ++micro_batch) {
    const uint32_t act = s.alloc(200 * 512, forward);
    const uint32_t tmp = s.alloc(50 * 512, backward);  // accumulating into .grad allocates nothing
    s.free(tmp);
    s.free(act);
  }
  const Outcome out = classify_story(s);
  CHECK(out.at_end == Bytes{{Category::Parameter, kW1 + kW2},
                            {Category::Gradient, kW1 + kW2},
                            {Category::OptimizerState, 2 * (kW1 + kW2)}});
}

TEST_CASE("story: SGD with momentum makes its buffer on the first step and keeps it") {
  Story s;
  const StackId forward = s.stack({kForward, kTrain});
  const StackId backward = s.stack({kAccumulateGrad, kTrain});
  const FakeFrame sgd{"_single_tensor_sgd", "/venv/lib/python3.11/site-packages/torch/optim/sgd.py", 310};
  const StackId step = s.stack({sgd, kOptimizerWrapper, kTrain});
  s.before(kW1);
  const uint32_t act = s.alloc(500 * 512, forward);
  const uint32_t grad = s.alloc(kW1, backward);
  s.free(act);
  const uint32_t momentum = s.alloc(kW1, step);  // momentum_buffer = torch.clone(grad)
  (void)grad;
  (void)momentum;
  const Outcome out = classify_story(s);
  CHECK(out.at_end ==
        Bytes{{Category::Parameter, kW1}, {Category::Gradient, kW1}, {Category::OptimizerState, kW1}});
}

TEST_CASE("story: Adafactor's factored state is state by its stack, whatever its size") {
  Story s;
  const StackId backward = s.stack({kAccumulateGrad, kTrain});
  const FakeFrame adafactor{"step", "/venv/lib/python3.11/site-packages/transformers/optimization.py", 880};
  const StackId step = s.stack({adafactor, kOptimizerWrapper, kTrain});
  s.before(kW1);
  s.before(4096, step);  // exp_avg_sq_row
  s.before(1024, step);  // exp_avg_sq_col
  const uint32_t grad = s.alloc(kW1, backward);
  const uint32_t update = s.alloc(kW1, step);
  s.free(update);
  (void)grad;
  const Outcome out = classify_story(s);
  CHECK(out.at_end == Bytes{{Category::Parameter, kW1},
                            {Category::Gradient, kW1},
                            {Category::OptimizerState, 4096 + 1024}});
  CHECK(out.at_peak == Bytes{{Category::Parameter, kW1},
                             {Category::Gradient, kW1},
                             {Category::OptimizerState, 4096 + 1024},
                             {Category::Temporary, kW1}});
}

TEST_CASE("story: activation checkpointing keeps the boundaries and recomputes the rest in the backward") {
  Story s;
  const StackId forward = s.stack({kForward, kTrain});
  const FakeFrame recompute{"recompute_fn", "/venv/lib/python3.11/site-packages/torch/utils/checkpoint.py",
                            1100};
  const StackId backward_recompute = s.stack({kForward, recompute, kMmBackward, kTrain});
  const StackId backward = s.stack({kAccumulateGrad, kTrain});
  s.before(kW1);
  const uint32_t boundary = s.alloc(800 * 512, forward);  // kept for the backward
  const uint32_t inner = s.alloc(2000 * 512, forward);    // dropped under no_grad
  s.free(inner);
  const uint32_t again = s.alloc(2000 * 512, backward_recompute);  // recomputed in the backward
  const uint32_t grad = s.alloc(kW1, backward);
  s.free(again);
  s.free(boundary);
  (void)grad;
  const Outcome out = classify_story(s);
  CHECK(out.at_end == Bytes{{Category::Parameter, kW1}, {Category::Gradient, kW1}});
  CHECK(out.at_peak == Bytes{{Category::Parameter, kW1},
                             {Category::Gradient, kW1},
                             {Category::Activation, 800 * 512},
                             {Category::Temporary, 2000 * 512}});
}

TEST_CASE("story: FSDP-like sharded parameters gathered per layer, then freed") {
  Story s;
  const FakeFrame all_gather{"_all_gather_flat_param",
                             "/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_flat_param.py",
                             1400};
  const StackId gather = s.stack({all_gather, kForward, kTrain});
  const StackId forward = s.stack({kForward, kTrain});
  const StackId backward = s.stack({kAccumulateGrad, kTrain});
  constexpr uint64_t kShard = 1024 * 512;
  s.before(kShard);  // this rank's shard of the flat parameter
  for (int layer = 0; layer < 2; ++layer) {
    const uint32_t full = s.alloc(4 * kShard, gather);  // the layer's unsharded weights
    const uint32_t act = s.alloc(100 * 512, forward);
    s.free(full);
    s.free(act);
  }
  const uint32_t grad = s.alloc(kShard, backward);  // the reduce-scattered gradient shard
  (void)grad;
  const Outcome out = classify_story(s);
  CHECK(out.at_end == Bytes{{Category::Parameter, kShard}, {Category::Gradient, kShard}});
  // The gathered weights are parameter memory while they live; the forward's scratch is temporary.
  CHECK(out.at_peak == Bytes{{Category::Parameter, kShard + 4 * kShard}, {Category::Temporary, 100 * 512}});
}
