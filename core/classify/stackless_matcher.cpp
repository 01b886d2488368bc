#include "core/classify/stackless_matcher.h"

#include <algorithm>
#include <cmath>

namespace snapscope {
namespace {

// With gradients in sight: each gradient vouches for one parameter of its size. The rest of a
// gradient's size is the state an optimizer step updates in place, where one ran.
std::vector<StacklessVerdict> match_gradients(std::span<const uint64_t> sizes, SizeCounts gradients,
                                              bool state_in_place) {
  std::vector<StacklessVerdict> out(sizes.size());
  for (size_t i = 0; i < sizes.size(); ++i) {
    const auto found = gradients.find(size_key(sizes[i]));
    if (found == gradients.end()) {
      out[i] = {Category::Parameter, Reason::PreexistingFrozen};
    } else if (found->second == 0) {
      out[i] = state_in_place ? StacklessVerdict{Category::OptimizerState, Reason::PreexistingInPlaceState}
                              : StacklessVerdict{Category::Parameter, Reason::PreexistingFrozen};
    } else {
      uint32_t& left = found->second;
      --left;
      out[i] = {Category::Parameter, Reason::PreexistingMatchesGradient};
    }
  }
  return out;
}

// State tensors per parameter: the k that makes the state's sizes fit the candidates' pairs, or 0
// when the state's sizes are not the parameters' (factored state such as Adafactor's).
uint32_t state_per_parameter(const SizeCounts& pairs, const SizeCounts& state) {
  uint64_t state_total = 0, matched_state = 0, matched_pairs = 0;
  for (const auto& [key, count] : state) {
    state_total += count;
    const auto found = pairs.find(key);
    if (found == pairs.end() || found->second == 0) continue;
    matched_state += count;
    matched_pairs += found->second;
  }
  if (matched_pairs == 0 || matched_state * 2 < state_total) return 0;
  return static_cast<uint32_t>(std::max<uint64_t>(
      1, static_cast<uint64_t>(
             std::llround(static_cast<double>(matched_state) / static_cast<double>(matched_pairs)))));
}

// No gradient allocated in the trace, yet it trains: the gradients are among the candidates, one
// beside each parameter of the same size. Optimizer state of that size, if any, caps the pairs.
std::vector<StacklessVerdict> match_pairs(std::span<const uint64_t> sizes, const SizeCounts& state) {
  SizeCounts candidates;
  for (const uint64_t size : sizes) ++candidates[size_key(size)];
  SizeCounts pairs;
  for (const auto& [key, count] : candidates) pairs[key] = count / 2;
  if (const uint32_t k = state_per_parameter(pairs, state); k > 0) {
    for (auto& [key, count] : pairs) {
      const auto found = state.find(key);
      count = std::min(count, found == state.end() ? 0u : found->second / k);
    }
  }
  SizeCounts parameters_left = pairs, gradients_left = pairs;
  std::vector<StacklessVerdict> out(sizes.size());
  for (size_t i = 0; i < sizes.size(); ++i) {
    const uint64_t key = size_key(sizes[i]);
    if (uint32_t& left = parameters_left[key]; left > 0) {
      --left;
      out[i] = {Category::Parameter, Reason::PreexistingPairedParameter};
    } else if (uint32_t& grads = gradients_left[key]; grads > 0) {
      --grads;
      out[i] = {Category::Gradient, Reason::PreexistingPairedGradient};
    } else {
      out[i] = {Category::Parameter, Reason::PreexistingFrozen};
    }
  }
  return out;
}

}  // namespace

uint64_t size_key(uint64_t bytes) { return (bytes + 511) / 512; }

std::vector<StacklessVerdict> match_stackless(std::span<const uint64_t> sizes,
                                              const StacklessEvidence& evidence) {
  if (!evidence.gradients.empty()) return match_gradients(sizes, evidence.gradients, evidence.state_in_place);
  if (!evidence.training) {
    // Weights, a KV cache, a CUDA-graph pool or a data buffer all live as long as this.
    return std::vector<StacklessVerdict>(sizes.size(), {Category::Unknown, Reason::PreexistingNoTraining});
  }
  return match_pairs(sizes, evidence.state);
}

}  // namespace snapscope
