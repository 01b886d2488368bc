// Memory from before recording that is alive throughout the trace and has no stack: parameters,
// gradients the backward accumulates into in place, buffers, caches. Only sizes tell them apart:
// every parameter that learns has one gradient of its size and k optimizer-state tensors of its
// size (k = 2 for Adam, 1 for SGD with momentum). Sizes are compared in the allocator's 512-byte
// units, where a block's requested size and its events' sizes agree.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "core/classify/classifier.h"

namespace snapscope {

using SizeCounts = std::unordered_map<uint64_t, uint32_t>;  // size key -> count
uint64_t size_key(uint64_t bytes);

struct StacklessEvidence {
  SizeCounts gradients;   // one generation of gradients (traced, else from before recording)
  SizeCounts state;       // one generation of optimizer state alive at the end
  bool training = false;  // the trace shows a backward pass, an optimizer step or zero_grad
  // An optimizer step ran and allocated no state that survives it: its state is updated in place
  // (torch.optim's foreach / fused AdamW after its first step), so it is among the candidates.
  bool state_in_place = false;
};

struct StacklessVerdict {
  Category category = Category::Unknown;
  Reason reason = Reason::NoEvidence;
};

// One verdict per size in `sizes` (bytes, in the candidates' order).
std::vector<StacklessVerdict> match_stackless(std::span<const uint64_t> sizes,
                                              const StacklessEvidence& evidence);

}  // namespace snapscope
