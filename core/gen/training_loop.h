// The workload behind a generated trace: a transformer training loop on one device.
// Parameters are allocated once (optionally before recording started, so they show up only
// in the segment snapshot), activations pile up through forward and are freed in backward,
// gradients live from backward to zero_grad, optimizer state is allocated in the first step,
// and temporaries come and go. Some frees on a side stream complete only a few ops later.
// next() yields an endless, deterministic event stream.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string_view>
#include <vector>

#include "core/gen/caching_allocator.h"
#include "core/gen/call_site_pool.h"
#include "core/gen/rng.h"

namespace snapscope::gen {

// Annotate: torch.cuda.memory._annotate_memory's after-the-fact note on a live allocation.
enum class EventKind : uint8_t {
  Alloc,
  FreeRequested,
  FreeCompleted,
  SegmentAlloc,
  SegmentFree,
  SegmentMap,
  Annotate
};

struct GenEvent {
  EventKind kind = EventKind::Alloc;
  uint64_t address = 0;
  uint64_t size = 0;
  uint64_t stream = 0;
  int64_t time_us = 0;
  uint32_t site = 0;
  // A backward allocation's forward op (the site of its layer's forward activation), for
  // forward_frames; kNoForwardSite otherwise.
  uint32_t forward_site = kNoForwardSite;
  static constexpr uint32_t kNoForwardSite = 0xFFFFFFFFu;
};

struct GenAnnotation {
  bool start = true;
  std::string_view name;
  int64_t time_us = 0;
};

class TrainingLoop {
 public:
  TrainingLoop(const CallSitePool& call_sites, int device, uint64_t seed, bool ghost_parameters,
               bool mem_pool = false);

  GenEvent next();
  // True between workload steps: the allocator state then matches the events taken so far,
  // which is where a trace may end and the segment snapshot be taken.
  bool at_step_boundary() const { return queue_.empty(); }
  const CachingAllocator& allocator() const { return allocator_; }
  // The private pool's allocator (GenOptions::mem_pool), null without one.
  const CachingAllocator* pool_allocator() const { return pool_allocator_ ? &*pool_allocator_ : nullptr; }
  const std::vector<GenAnnotation>& annotations() const { return annotations_; }

 private:
  enum class Phase : uint8_t { Forward, Backward, Optimizer, ZeroGrad };
  struct Tensor {
    uint64_t address;
    uint64_t stream;
    bool pooled = false;  // from the private pool
  };
  struct DelayedFree {
    uint64_t address;
    uint64_t due_step;
  };

  void run_next_step();
  void forward_layer(uint32_t layer);
  void backward_layer(uint32_t layer);
  void optimizer_layer(uint32_t layer);
  void zero_grad();
  void allocate_parameters();
  Tensor allocate(uint64_t bytes, SiteKind kind, uint32_t layer, uint64_t stream = 0, bool pooled = false);
  // FSDP's all-gather of one layer's parameters into the private pool (none without one).
  std::optional<Tensor> gather_parameters(uint32_t layer, SiteKind kind);
  CachingAllocator& allocator_of(const Tensor& tensor) {
    return tensor.pooled ? *pool_allocator_ : allocator_;
  }
  void release(Tensor tensor);
  void complete_due_frees();
  void emit(EventKind kind, uint64_t address, uint64_t size, uint64_t stream, uint32_t site,
            uint32_t forward_site = GenEvent::kNoForwardSite);
  void annotate(bool start, std::string_view name);
  std::vector<uint64_t> layer_parameter_sizes() const;

  const CallSitePool& call_sites_;
  Rng rng_;
  CachingAllocator allocator_;
  std::optional<CachingAllocator> pool_allocator_;
  std::deque<GenEvent> queue_;
  std::vector<GenAnnotation> annotations_;
  bool recording_ = true;
  int64_t now_us_;
  uint64_t step_ = 0;

  // Model shape, drawn from the seed.
  uint32_t layers_;
  uint64_t hidden_;
  uint64_t tokens_;
  uint64_t side_stream_;

  Phase phase_ = Phase::Forward;
  uint32_t layer_ = 0;
  uint64_t iteration_ = 0;
  std::vector<Tensor> parameters_;
  std::vector<std::vector<Tensor>> saved_;           // activations per layer, forward -> backward
  std::vector<uint32_t> forward_site_;               // per layer: its last forward activation's site
  uint32_t backward_of_ = GenEvent::kNoForwardSite;  // while in backward: its layer's forward site
  uint32_t last_site_ = 0;                           // the site of the last allocation
  std::vector<Tensor> gradients_;
  std::vector<Tensor> optimizer_state_;
  std::vector<DelayedFree> delayed_;
};

}  // namespace snapscope::gen
