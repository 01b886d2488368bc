// A per-stack answer computed once: a dense byte array for the usual small stack ids (one array
// read per allocation instead of a hash lookup: 10M allocations pay 10M of them), a map beyond.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/snapshot/model.h"

namespace snapscope {

template <class Compute>
class StackMemo {
 public:
  explicit StackMemo(Compute compute) : compute_(std::move(compute)) {}

  uint8_t get(StackId stack) {
    if (stack < kDenseLimit) {
      if (stack >= dense_.size()) dense_.resize(static_cast<size_t>(stack) + 1, kUnset);
      uint8_t& slot = dense_[stack];
      if (slot == kUnset) slot = compute_(stack);
      return slot;
    }
    auto [it, inserted] = sparse_.try_emplace(stack, uint8_t{0});
    if (inserted) it->second = compute_(stack);
    return it->second;
  }

 private:
  static constexpr StackId kDenseLimit = StackId{1} << 24;
  static constexpr uint8_t kUnset = 0xFF;
  Compute compute_;
  std::vector<uint8_t> dense_;
  std::unordered_map<StackId, uint8_t> sparse_;
};

}  // namespace snapscope
