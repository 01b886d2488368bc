// The background LOD worker delivers the same frames as a direct build, newest request last.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "core/lod/lod_worker.h"
#include "unit/support/test_lod_traces.h"

using namespace snapscope;

namespace {

LodFrame wait_for_frame(LodWorker& worker) {
  for (int i = 0; i < 5000; ++i) {
    if (auto frame = worker.take()) return *frame;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  FAIL("the worker produced no frame within 5 s");
  return {};
}

bool same_instances(const LodFrame& a, const LodFrame& b) {
  if (a.instances.size() != b.instances.size()) return false;
  for (size_t i = 0; i < a.instances.size(); ++i) {
    const ChartInstance &x = a.instances[i], &y = b.instances[i];
    if (x.x0 != y.x0 || x.x1 != y.x1 || x.bottom0 != y.bottom0 || x.bottom1 != y.bottom1 ||
        x.height != y.height || x.elem != y.elem || x.color_key != y.color_key) {
      return false;
    }
  }
  return true;
}

}  // namespace

TEST_CASE("lod worker: latest request wins and matches a direct build") {
  ReplayInput input = test::random_trace({.actions = 5000, .seed = 17});
  Timeline timeline(input);
  LodWorker worker(timeline);
  LodBuilder direct(timeline);
  double steps = static_cast<double>(timeline.timesteps()), bytes = static_cast<double>(timeline.max_size());
  ChartView last{};
  for (int i = 0; i < 20; ++i) {  // a burst of pans: only the last one has to be delivered
    last = {i * steps * 0.01, steps * (0.5 + i * 0.01), 0.0, bytes, 640, 400};
    worker.request(last);
  }
  LodFrame frame = wait_for_frame(worker);
  while (worker.busy() || frame.view != last) frame = wait_for_frame(worker);
  CHECK(frame.view == last);
  CHECK(same_instances(frame, direct.build(last)));

  std::vector<uint32_t> keys(timeline.element_count(), 7);
  worker.set_color_keys(keys);
  LodFrame recoloured = wait_for_frame(worker);
  CHECK(recoloured.view == last);
  REQUIRE_FALSE(recoloured.instances.empty());
  for (const ChartInstance& instance : recoloured.instances) CHECK(instance.color_key == 7);
  CHECK_FALSE(worker.take().has_value());
}

TEST_CASE("lod worker: wakes its owner, waits, and ends idle with the requested frame") {
  ReplayInput input = test::random_trace({.actions = 3000, .seed = 5});
  Timeline timeline(input);
  std::atomic<int> finished{0};
  LodWorker worker(timeline, [&] { ++finished; });
  CHECK(worker.idle());
  double steps = static_cast<double>(timeline.timesteps()), bytes = static_cast<double>(timeline.max_size());
  const ChartView view{0.0, steps, 0.0, bytes, 320, 200};
  worker.request(view);
  worker.wait_until_built();
  CHECK_FALSE(worker.busy());
  CHECK(worker.has_finished());
  CHECK_FALSE(worker.idle());  // a frame waits to be taken
  CHECK(finished.load() >= 1);
  std::optional<LodFrame> frame = worker.take();
  REQUIRE(frame.has_value());
  CHECK(frame->view == view);
  CHECK(same_instances(*frame, LodBuilder(timeline).build(view)));
  CHECK(worker.idle());
  worker.request(view);  // the same view again: nothing to build
  CHECK(worker.idle());
}
