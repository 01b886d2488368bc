// The call stacks of a synthetic training script: a pool of frames (C++ frames with filename
// '??' and Python frames from a few hundred files/functions) and, per kind of allocation,
// a set of call sites whose stacks (20-150 frames, innermost first) repeat across events the
// way a real training loop's stacks do.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "core/gen/rng.h"

namespace snapscope::gen {

struct FrameSpec {
  std::string name;
  std::string filename;
  int64_t line = 0;
};

enum class SiteKind : uint8_t {
  Parameter,
  ForwardActivation,
  ForwardTemporary,
  BackwardGradient,
  BackwardTemporary,
  OptimizerState,
  OptimizerTemporary,
  Count,
};

class CallSitePool {
 public:
  explicit CallSitePool(uint64_t seed);

  const std::vector<FrameSpec>& frames() const { return frames_; }
  std::span<const uint32_t> stack(uint32_t site) const { return stacks_[site]; }
  size_t site_count() const { return stacks_.size(); }
  // A call site of the given kind; `layer` keeps a layer's ops on its own sites.
  uint32_t pick(SiteKind kind, uint32_t layer, Rng& rng) const;

 private:
  uint32_t frame(std::string name, std::string filename, int64_t line);
  uint32_t native(const std::string& name) { return frame(name, "??", 0); }
  void build_python_pool(Rng& rng);
  std::vector<uint32_t> allocator_prefix();
  std::vector<uint32_t> aten_op_frames(const std::string& op, Rng& rng);
  std::vector<uint32_t> python_path(size_t depth, Rng& rng);
  std::vector<uint32_t> startup_suffix();
  std::vector<uint32_t> autograd_engine_frames();
  // model.to(device): Module.to -> _apply -> convert, as a parameter's copy onto the GPU shows.
  std::vector<uint32_t> module_to_frames();
  std::vector<uint32_t> make_stack(SiteKind kind, Rng& rng);

  std::vector<FrameSpec> frames_;
  std::map<std::tuple<std::string, std::string, int64_t>, uint32_t>
      frame_index_;  // equal frames share a dict
  std::vector<std::vector<uint32_t>> stacks_;
  std::vector<std::vector<uint32_t>> sites_by_kind_;
  std::vector<uint32_t> python_frames_;  // pool of (file, function, line) frames
  std::vector<uint32_t> module_frames_;  // nn.Module call plumbing, repeated per nesting level
};

}  // namespace snapscope::gen
