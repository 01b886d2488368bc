#include "core/gen/training_loop.h"

#include <algorithm>

namespace snapscope::gen {
namespace {

constexpr uint64_t kBytesPerValue = 4;              // fp32 training
constexpr uint64_t kEmptyCacheEvery = 5;            // iterations between torch.cuda.empty_cache()
constexpr int64_t kStartTimeUs = 1748730219595970;  // a plausible epoch-microsecond clock
constexpr uint64_t kAddressBase = 0x7f2a00000000ull;
constexpr uint64_t kDeviceAddressStride = 0x10000000000ull;
constexpr uint64_t kPoolAddressOffset = kDeviceAddressStride / 2;  // the private pool's segments
constexpr uint64_t kHiddenSizes[] = {512, 768, 1024, 1536, 2048};

}  // namespace

TrainingLoop::TrainingLoop(const CallSitePool& call_sites, int device, uint64_t seed, bool ghost_parameters,
                           bool mem_pool)
    : call_sites_(call_sites),
      rng_(derive_seed(seed, 0x100 + static_cast<uint64_t>(device))),
      // Odd devices use expandable segments, so traces also carry segment_map events.
      allocator_(kAddressBase + static_cast<uint64_t>(device) * kDeviceAddressStride, device % 2 == 1),
      now_us_(kStartTimeUs + device * 137) {
  layers_ = static_cast<uint32_t>(rng_.range(4, 12));
  hidden_ = kHiddenSizes[rng_.index(std::size(kHiddenSizes))];
  tokens_ = rng_.range(1, 4) * 1024;
  side_stream_ = 0x55d0c3a00000ull + rng_.range(0, 0xfffff) * 16;
  saved_.resize(layers_);
  forward_site_.assign(layers_, GenEvent::kNoForwardSite);
  if (mem_pool) {
    pool_allocator_.emplace(
        kAddressBase + static_cast<uint64_t>(device) * kDeviceAddressStride + kPoolAddressOffset, false);
  }
  recording_ = !ghost_parameters;
  allocate_parameters();
  recording_ = true;
}

GenEvent TrainingLoop::next() {
  while (queue_.empty()) run_next_step();
  GenEvent event = queue_.front();
  queue_.pop_front();
  return event;
}

void TrainingLoop::run_next_step() {
  ++step_;
  complete_due_frees();
  switch (phase_) {
    case Phase::Forward:
      if (layer_ == 0) annotate(true, "forward");
      forward_layer(layer_);
      if (++layer_ == layers_) {
        annotate(false, "forward");
        annotate(true, "backward");
        phase_ = Phase::Backward;
      }
      break;
    case Phase::Backward:
      backward_layer(--layer_);
      if (layer_ == 0) {
        annotate(false, "backward");
        annotate(true, "Optimizer.step#AdamW.step");
        phase_ = Phase::Optimizer;
      }
      break;
    case Phase::Optimizer:
      optimizer_layer(layer_);
      if (++layer_ == layers_) {
        annotate(false, "Optimizer.step#AdamW.step");
        phase_ = Phase::ZeroGrad;
      }
      break;
    case Phase::ZeroGrad:
      zero_grad();
      layer_ = 0;
      phase_ = Phase::Forward;
      break;
  }
}

// Weights of one transformer block: qkv, out proj, two MLP matrices, biases and norms.
std::vector<uint64_t> TrainingLoop::layer_parameter_sizes() const {
  const uint64_t h = hidden_;
  return {3 * h * h * kBytesPerValue, 3 * h * kBytesPerValue, h * h * kBytesPerValue,     h * kBytesPerValue,
          4 * h * h * kBytesPerValue, 4 * h * kBytesPerValue, 4 * h * h * kBytesPerValue, h * kBytesPerValue,
          h * kBytesPerValue,         h * kBytesPerValue};
}

void TrainingLoop::allocate_parameters() {
  for (uint32_t layer = 0; layer < layers_; ++layer)
    for (uint64_t bytes : layer_parameter_sizes())
      parameters_.push_back(allocate(bytes, SiteKind::Parameter, layer));
}

std::optional<TrainingLoop::Tensor> TrainingLoop::gather_parameters(uint32_t layer, SiteKind kind) {
  if (!pool_allocator_) return std::nullopt;
  uint64_t bytes = 0;
  for (uint64_t size : layer_parameter_sizes()) bytes += size;
  return allocate(bytes, kind, layer, 0, /*pooled=*/true);
}

void TrainingLoop::forward_layer(uint32_t layer) {
  const uint64_t activation = tokens_ * hidden_ * kBytesPerValue;
  const std::optional<Tensor> gathered = gather_parameters(layer, SiteKind::ForwardTemporary);
  const uint64_t saved = rng_.range(4, 8);
  for (uint64_t i = 0; i < saved; ++i) {
    const uint64_t bytes = i % 3 == 2 ? activation * 4 : activation;  // the MLP's wide activation
    saved_[layer].push_back(allocate(bytes, SiteKind::ForwardActivation, layer));
    forward_site_[layer] = last_site_;
    if (rng_.chance(0.6)) {
      Tensor temporary =
          allocate(rng_.chance(0.3) ? rng_.range(4, 4096) : activation, SiteKind::ForwardTemporary, layer);
      release(temporary);
    }
  }
  if (gathered) release(*gathered);
}

void TrainingLoop::backward_layer(uint32_t layer) {
  const uint64_t activation = tokens_ * hidden_ * kBytesPerValue;
  const auto sizes = layer_parameter_sizes();
  backward_of_ = forward_site_[layer];  // autograd records the forward op behind each backward one
  const std::optional<Tensor> gathered = gather_parameters(layer, SiteKind::BackwardTemporary);
  for (uint64_t bytes : sizes) {
    Tensor temporary = allocate(activation, SiteKind::BackwardTemporary, layer);
    // Gradient buckets are reduced on a communication stream.
    const uint64_t stream = rng_.chance(0.15) ? side_stream_ : 0;
    gradients_.push_back(allocate(bytes, SiteKind::BackwardGradient, layer, stream));
    release(temporary);
  }
  for (Tensor tensor : saved_[layer]) release(tensor);
  saved_[layer].clear();
  if (gathered) release(*gathered);
  backward_of_ = GenEvent::kNoForwardSite;
}

void TrainingLoop::optimizer_layer(uint32_t layer) {
  const auto sizes = layer_parameter_sizes();
  if (iteration_ == 0) {
    for (uint64_t bytes : sizes) {
      optimizer_state_.push_back(allocate(bytes, SiteKind::OptimizerState, layer));  // exp_avg
      optimizer_state_.push_back(allocate(bytes, SiteKind::OptimizerState, layer));  // exp_avg_sq
    }
  }
  for (uint64_t bytes : sizes) {
    Tensor denominator = allocate(bytes, SiteKind::OptimizerTemporary, layer);
    Tensor norm = allocate(rng_.range(4, 512), SiteKind::OptimizerTemporary, layer);
    release(norm);
    release(denominator);
  }
}

void TrainingLoop::zero_grad() {
  annotate(true, "Optimizer.zero_grad#AdamW.zero_grad");
  for (Tensor tensor : gradients_) release(tensor);
  gradients_.clear();
  annotate(false, "Optimizer.zero_grad#AdamW.zero_grad");
  ++iteration_;
  if (iteration_ % kEmptyCacheEvery == kEmptyCacheEvery - 1) {
    std::vector<SegmentEvent> released;
    allocator_.empty_cache(released);
    for (const SegmentEvent& s : released) emit(EventKind::SegmentFree, s.address, s.size, s.stream, s.site);
  }
}

TrainingLoop::Tensor TrainingLoop::allocate(uint64_t bytes, SiteKind kind, uint32_t layer, uint64_t stream,
                                            bool pooled) {
  const uint32_t site = call_sites_.pick(kind, layer, rng_);
  last_site_ = site;
  std::vector<SegmentEvent> segment_events;
  const Tensor tensor{0, stream, pooled};
  CachingAllocator& allocator = allocator_of(tensor);
  const uint64_t address = allocator.allocate(bytes, stream, site, segment_events);
  for (const SegmentEvent& s : segment_events)
    emit(s.action == SegmentAction::Map ? EventKind::SegmentMap : EventKind::SegmentAlloc, s.address, s.size,
         s.stream, s.site);
  emit(EventKind::Alloc, address, allocator.block(address).size, stream, site, backward_of_);
  return Tensor{address, stream, pooled};
}

// Frees on the main stream complete at once; a side-stream free often waits for that
// stream's work, so its free_completed comes a few steps later.
void TrainingLoop::release(Tensor tensor) {
  CachingAllocator& allocator = allocator_of(tensor);
  const SimBlock& block = allocator.block(tensor.address);
  emit(EventKind::FreeRequested, tensor.address, block.size, tensor.stream, block.site);
  if (tensor.stream != 0 && rng_.chance(0.5)) {
    allocator_.mark_pending_free(tensor.address);
    delayed_.push_back(DelayedFree{tensor.address, step_ + rng_.range(1, 3)});
    return;
  }
  emit(EventKind::FreeCompleted, tensor.address, block.size, tensor.stream, block.site);
  allocator.free(tensor.address);
}

void TrainingLoop::complete_due_frees() {
  auto due = std::stable_partition(delayed_.begin(), delayed_.end(),
                                   [this](const DelayedFree& d) { return d.due_step > step_; });
  for (auto it = due; it != delayed_.end(); ++it) {
    const SimBlock& block = allocator_.block(it->address);
    emit(EventKind::FreeCompleted, it->address, block.size, side_stream_, block.site);
    allocator_.free(it->address);
  }
  delayed_.erase(due, delayed_.end());
}

void TrainingLoop::emit(EventKind kind, uint64_t address, uint64_t size, uint64_t stream, uint32_t site,
                        uint32_t forward_site) {
  if (!recording_) return;
  now_us_ += static_cast<int64_t>(rng_.range(1, 40));
  queue_.push_back(GenEvent{kind, address, size, stream, now_us_, site, forward_site});
}

void TrainingLoop::annotate(bool start, std::string_view name) {
  now_us_ += static_cast<int64_t>(rng_.range(5, 200));
  annotations_.push_back(GenAnnotation{start, name, now_us_});
}

}  // namespace snapscope::gen
