// Builds LodFrames on a background thread so the UI never waits on a view change: the caller
// requests the latest view every frame and keeps presenting its cached (stale) image until a
// newer frame is ready. Requests that arrive while a build runs collapse into the latest one.
// The builder's indexes are made on the worker too, so opening a large trace does not block.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "core/lod/lod_builder.h"

namespace snapscope {

class LodWorker {
 public:
  // The timeline must outlive the worker. on_finished (optional) runs on the worker thread after
  // each frame is ready, e.g. to wake a UI loop that sleeps until input. With rasterize,
  // frames also carry their key_image (key_raster.h), made on the worker.
  // `pyramid` (optional): the timeline's MemoryPyramid, when one is already built.
  // `pools` (optional): draw the timeline's private pools view (LodBuilder::set_private_pools),
  // with `pool_pyramid` over its totals when already built.
  explicit LodWorker(const Timeline& timeline, std::function<void()> on_finished = {}, bool rasterize = false,
                     std::shared_ptr<const MemoryPyramid> pyramid = nullptr,
                     std::shared_ptr<const PrivatePoolLayout> pools = nullptr,
                     std::shared_ptr<const MemoryPyramid> pool_pyramid = nullptr);
  ~LodWorker();
  LodWorker(const LodWorker&) = delete;
  LodWorker& operator=(const LodWorker&) = delete;

  // Asks for `view` (ignored when it is the view last requested and colours did not change);
  // `warp`: see LodBuilder::build.
  void request(const ChartView& view, std::shared_ptr<const TimeWarp> warp = nullptr);
  void set_color_keys(std::vector<uint32_t> keys);  // rebuilds the last requested view
  // The newest finished frame not taken yet.
  std::optional<LodFrame> take();
  bool busy() const;          // a request is pending or being built
  bool has_finished() const;  // a finished frame waits for take()
  // Nothing pending, nothing being built and no finished frame left to take.
  bool idle() const;
  void wait_until_built() const;  // blocks while busy()

 private:
  void run();

  const Timeline& timeline_;
  std::shared_ptr<const MemoryPyramid> pyramid_;
  std::shared_ptr<const PrivatePoolLayout> pools_;
  std::shared_ptr<const MemoryPyramid> pool_pyramid_;
  std::optional<LodBuilder> builder_;  // made on the worker thread
  std::function<void()> on_finished_;
  bool rasterize_ = false;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  mutable std::condition_variable built_;
  struct Request {
    ChartView view;
    std::shared_ptr<const TimeWarp> warp;
    bool operator==(const Request&) const = default;
  };
  std::optional<Request> pending_, last_requested_;
  std::optional<std::vector<uint32_t>> pending_colors_;
  std::optional<LodFrame> finished_;
  bool building_ = false, stopping_ = false;
  std::thread thread_;  // last: starts after everything above is initialised
};

}  // namespace snapscope
