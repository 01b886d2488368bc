// Random memory_viz traces with fixed seeds and a naive reference replay for the LOD tests.
// The reference keeps the whole stack per state (O(actions x live)): fine for small traces.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "core/lod/chart_instance.h"
#include "core/lod/chart_view.h"
#include "core/timeline/replay_input.h"
#include "replay_actions.h"

namespace snapscope::test {

struct TraceShape {
  size_t initial = 8;
  size_t actions = 2000;
  double alloc_probability = 0.55;
  uint64_t seed = 1;
};

// Sizes spread over five decades so every zoom level has both big and tiny allocations.
inline ReplayInput random_trace(const TraceShape& shape) {
  std::mt19937_64 rng(shape.seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto random_size = [&] { return static_cast<uint64_t>(512.0 * std::pow(10.0, 5.0 * unit(rng))) + 1; };
  ReplayInput input;
  std::vector<uint32_t> live;
  for (size_t i = 0; i < shape.initial; ++i) {
    input.elements.push_back({.size = random_size()});
    input.initial_stack.push_back(static_cast<uint32_t>(i));
    live.push_back(static_cast<uint32_t>(i));
  }
  while (input.actions.size() < shape.actions) {
    if (live.empty() || unit(rng) < shape.alloc_probability) {
      auto elem = static_cast<uint32_t>(input.elements.size());
      input.elements.push_back(
          {.size = random_size(), .alloc_event = static_cast<EventIndex>(input.actions.size())});
      live.push_back(elem);
      testing::push_action(input, elem, static_cast<EventIndex>(input.actions.size()));
      continue;
    }
    // Mostly free recent allocations (like activations), sometimes old ones.
    size_t back = std::min(live.size() - 1, static_cast<size_t>(std::exp(unit(rng) * std::log(live.size()))));
    size_t index = live.size() - 1 - back;
    testing::push_action(input, live[index], static_cast<EventIndex>(input.actions.size()));
    live.erase(live.begin() + static_cast<std::ptrdiff_t>(index));
  }
  return input;
}

// A training loop: weights at the bottom for good, then per iteration activations allocated in
// the forward pass and freed in reverse in the backward pass, with short-lived temporaries.
inline ReplayInput training_like_trace(size_t iterations, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<uint64_t> activation(1 << 20, 64 << 20), temporary(512, 1 << 20);
  ReplayInput input;
  auto push = [&](uint32_t elem) {
    testing::push_action(input, elem, static_cast<EventIndex>(input.actions.size()));
  };
  auto alloc = [&](uint64_t size) {
    auto elem = static_cast<uint32_t>(input.elements.size());
    input.elements.push_back({.size = size, .alloc_event = static_cast<EventIndex>(input.actions.size())});
    push(elem);
    return elem;
  };
  for (int w = 0; w < 40; ++w) alloc(activation(rng) * 4);
  for (size_t it = 0; it < iterations; ++it) {
    std::vector<uint32_t> saved;
    for (int layer = 0; layer < 60; ++layer) {
      saved.push_back(alloc(activation(rng)));
      uint32_t scratch = alloc(temporary(rng));
      push(scratch);
    }
    while (!saved.empty()) {
      uint32_t grad = alloc(activation(rng));
      push(saved.back());
      saved.pop_back();
      push(grad);
    }
  }
  return input;
}

struct RefAllocation {
  uint32_t elem;
  uint64_t offset, size;
};

// stacks[s]: the live allocations in state s, bottom to top.
inline std::vector<std::vector<RefAllocation>> reference_stacks(const ReplayInput& input) {
  std::vector<uint32_t> stack(input.initial_stack.begin(), input.initial_stack.end());
  auto layout = [&] {
    std::vector<RefAllocation> out;
    uint64_t offset = 0;
    for (uint32_t e : stack) {
      out.push_back({e, offset, input.elements[e].size});
      offset += input.elements[e].size;
    }
    return out;
  };
  std::vector<std::vector<RefAllocation>> stacks{layout()};
  for (const ReplayAction& action : input.actions) {
    auto it = std::find(stack.begin(), stack.end(), action.elem);
    if (it == stack.end()) {
      stack.push_back(action.elem);
    } else {
      stack.erase(it);
    }
    stacks.push_back(layout());
  }
  return stacks;
}

inline uint64_t total_of(const std::vector<RefAllocation>& stack) {
  return stack.empty() ? 0 : stack.back().offset + stack.back().size;
}

// What a rasteriser paints at a pixel centre: the last instance covering it (draw order),
// or nullptr. row counts from the bottom.
inline const ChartInstance* painted_at(const std::vector<ChartInstance>& instances, const ChartView& view,
                                       int px, int row) {
  double x = (px + 0.5) * view.steps_per_px();
  double y = (row + 0.5) * view.bytes_per_px();
  const ChartInstance* top = nullptr;
  for (const ChartInstance& i : instances) {
    if (x < i.x0 || x >= i.x1) continue;
    double t = (x - i.x0) / (i.x1 - i.x0);
    double bottom = i.bottom0 + t * (i.bottom1 - i.bottom0);
    if (y >= bottom && y < bottom + i.height) top = &i;
  }
  return top;
}

}  // namespace snapscope::test
