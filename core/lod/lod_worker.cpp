#include "core/lod/lod_worker.h"

#include "core/lod/key_raster.h"
#include "core/util/background_priority.h"

namespace snapscope {

LodWorker::LodWorker(const Timeline& timeline, std::function<void()> on_finished, bool rasterize,
                     std::shared_ptr<const MemoryPyramid> pyramid,
                     std::shared_ptr<const PrivatePoolLayout> pools,
                     std::shared_ptr<const MemoryPyramid> pool_pyramid)
    : timeline_(timeline),
      pyramid_(std::move(pyramid)),
      pools_(std::move(pools)),
      pool_pyramid_(std::move(pool_pyramid)),
      on_finished_(std::move(on_finished)),
      rasterize_(rasterize),
      thread_([this] { run(); }) {}

LodWorker::~LodWorker() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void LodWorker::request(const ChartView& view, std::shared_ptr<const TimeWarp> warp) {
  {
    std::lock_guard lock(mutex_);
    Request wanted{view, std::move(warp)};
    if (last_requested_ == wanted) return;
    last_requested_ = wanted;
    pending_ = std::move(wanted);
  }
  wake_.notify_one();
}

void LodWorker::set_color_keys(std::vector<uint32_t> keys) {
  {
    std::lock_guard lock(mutex_);
    pending_colors_ = std::move(keys);
    if (last_requested_) pending_ = last_requested_;
  }
  wake_.notify_one();
}

std::optional<LodFrame> LodWorker::take() {
  std::lock_guard lock(mutex_);
  return std::exchange(finished_, std::nullopt);
}

bool LodWorker::busy() const {
  std::lock_guard lock(mutex_);
  return building_ || pending_.has_value();
}

bool LodWorker::has_finished() const {
  std::lock_guard lock(mutex_);
  return finished_.has_value();
}

bool LodWorker::idle() const {
  std::lock_guard lock(mutex_);
  return !building_ && !pending_ && !finished_;
}

void LodWorker::wait_until_built() const {
  std::unique_lock lock(mutex_);
  built_.wait(lock, [this] { return !building_ && !pending_; });
}

void LodWorker::run() {
  // Below the UI thread (its frames are what the user sees move) but above bulk indexing.
  lower_thread_priority(kChartWorkerNice);
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return stopping_ || pending_.has_value(); });
    if (stopping_) return;
    Request wanted = *std::exchange(pending_, std::nullopt);
    std::optional<std::vector<uint32_t>> colors = std::exchange(pending_colors_, std::nullopt);
    building_ = true;
    lock.unlock();
    if (!builder_) {
      builder_.emplace(timeline_, pyramid_);
      builder_->set_private_pools(pools_, pool_pyramid_);
    }
    if (colors) builder_->set_color_keys(std::move(*colors));
    LodFrame frame = builder_->build(wanted.view, std::move(wanted.warp));
    if (rasterize_) frame.key_image = rasterize_keys(frame);
    lock.lock();
    building_ = false;
    finished_ = std::move(frame);
    if (on_finished_) on_finished_();  // under the lock: the callback must not call back in
    built_.notify_all();
  }
}

}  // namespace snapscope
