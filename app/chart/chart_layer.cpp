#include "app/chart/chart_layer.h"

#include <imgui.h>

#include <chrono>
#include <cstdint>

#include "core/lod/lod_pick.h"
#include "core/lod/lod_worker.h"
#include "render/chart_renderer.h"

namespace snapscope {
namespace {

using Clock = std::chrono::steady_clock;

// In the axis the screen is linear in (timesteps, or wall-clock time with a warp).
ChartView chart_view_of(const ViewTransform& view) {
  const DataRect visible = view.visible_axis();
  return {visible.x0,
          visible.x1,
          visible.y0,
          visible.y1,
          static_cast<int>(view.viewport_width()),
          static_cast<int>(view.viewport_height())};
}

struct Request {
  ChartView view;
  Clock::time_point at;
};

}  // namespace

struct ChartLayer::Impl {
  const Timeline* timeline = nullptr;
  std::shared_ptr<const PrivatePoolLayout> pools;
  std::unique_ptr<LodWorker> worker;
  std::unique_ptr<ChartRenderer> renderer;  // created lazily: needs the GL context
  std::function<void()> on_ready;
  std::vector<uint32_t> color_keys;
  std::vector<Rgba> palette{kDefaultPalette.begin(), kDefaultPalette.end()};
  bool colors_changed = false;
  ChartView wanted;
  std::shared_ptr<const TimeWarp> wanted_warp;  // the axis wanted is in
  bool has_frame = false;
  LodFrame frame;                 // the frame in the texture
  std::vector<Request> requests;  // not yet drawn, oldest first
  std::vector<double> latencies;
  size_t views_requested = 0;  // each change of the wanted view (or its axis) counts

  bool frame_is_wanted() const { return frame.view == wanted && frame.warp == wanted_warp; }
  void note_request() {
    if (!requests.empty() && requests.back().view == wanted) return;
    requests.push_back({wanted, Clock::now()});
  }
  void note_drawn() {
    for (size_t i = requests.size(); i-- > 0;) {
      if (requests[i].view != frame.view) continue;
      latencies.push_back(std::chrono::duration<double, std::milli>(Clock::now() - requests[i].at).count());
      requests.erase(requests.begin(), requests.begin() + static_cast<std::ptrdiff_t>(i) + 1);
      return;
    }
  }
};

ChartLayer::ChartLayer() : impl_(std::make_unique<Impl>()) {}
ChartLayer::~ChartLayer() = default;

void ChartLayer::reset() {
  auto renderer = std::move(impl_->renderer);  // GL objects survive a document change
  auto on_ready = std::move(impl_->on_ready);
  impl_ = std::make_unique<Impl>();  // joins the worker
  impl_->renderer = std::move(renderer);
  impl_->on_ready = std::move(on_ready);
}

void ChartLayer::set_frame_ready_callback(std::function<void()> callback) {
  impl_->on_ready = std::move(callback);
}

void ChartLayer::set_color_keys(std::vector<uint32_t> keys, std::vector<Rgba> palette) {
  impl_->color_keys = std::move(keys);
  impl_->palette = palette.empty() ? std::vector<Rgba>(kDefaultPalette.begin(), kDefaultPalette.end())
                                   : std::move(palette);
  impl_->colors_changed = true;
}

bool ChartLayer::update(const Timeline& timeline, const ViewTransform& view,
                        std::shared_ptr<const MemoryPyramid> pyramid,
                        std::shared_ptr<const PrivatePoolLayout> pools,
                        std::shared_ptr<const MemoryPyramid> pool_pyramid) {
  Impl& impl = *impl_;
  if (impl.timeline != &timeline || impl.pools != pools) {
    impl.worker.reset();  // stop building for the previous timeline first
    impl.worker = std::make_unique<LodWorker>(timeline, impl.on_ready, /*rasterize=*/true, std::move(pyramid),
                                              pools, std::move(pool_pyramid));
    impl.timeline = &timeline;
    impl.pools = std::move(pools);
    impl.colors_changed = true;
    impl.has_frame = false;
    impl.frame = {};
    impl.requests.clear();
  }
  const ChartView wanted = chart_view_of(view);
  if (impl.views_requested == 0 || wanted != impl.wanted || impl.wanted_warp != view.warp())
    ++impl.views_requested;
  impl.wanted = wanted;
  if (impl.wanted_warp != view.warp()) {
    impl.wanted_warp = view.warp();
    impl.requests.clear();  // latencies count within one axis
  }
  if (impl.colors_changed) {
    impl.worker->set_color_keys(impl.color_keys);
    impl.colors_changed = false;
    impl.requests.clear();  // the next frame of the wanted view counts from now
  }
  impl.note_request();
  impl.worker->request(impl.wanted, impl.wanted_warp);
  std::optional<LodFrame> built = impl.worker->take();
  if (!built) return false;
  impl.frame = std::move(*built);
  impl.has_frame = true;
  if (!impl.renderer) impl.renderer = std::make_unique<ChartRenderer>();
  impl.renderer->set_palette(impl.palette);
  impl.renderer->render(impl.frame);
  impl.note_drawn();
  return true;
}

void ChartLayer::warm_up() {
  Impl& impl = *impl_;
  if (impl.renderer) return;
  impl.renderer = std::make_unique<ChartRenderer>();
  impl.renderer->warm_up();
  // Alpha 1 of 255 (ImGui skips an image of alpha 0): a 3-pixel corner changed by at most one level.
  const auto texture = static_cast<intptr_t>(impl.renderer->texture());
  ImGui::GetForegroundDrawList()->AddImage(reinterpret_cast<ImTextureID>(texture), ImVec2(0, 0), ImVec2(3, 3),
                                           ImVec2(0, 1), ImVec2(1, 0), IM_COL32(255, 255, 255, 1));
}

bool ChartLayer::settled() const {
  const Impl& impl = *impl_;
  if (impl.timeline == nullptr) return true;
  return impl.has_frame && !impl.colors_changed && impl.frame_is_wanted() && impl.worker->idle();
}

bool ChartLayer::frame_waiting() const { return impl_->worker && impl_->worker->has_finished(); }

void ChartLayer::wait_for_build() const {
  if (impl_->worker) impl_->worker->wait_until_built();
}

size_t ChartLayer::views_requested() const { return impl_->views_requested; }

std::vector<double> ChartLayer::take_restream_latencies() { return std::exchange(impl_->latencies, {}); }

void ChartLayer::paint(float x, float y, float width, float height) const {
  const Impl& impl = *impl_;
  if (!impl.renderer || !impl.has_frame || impl.frame.instances.empty()) return;
  if (impl.frame.warp != impl.wanted_warp) return;  // other x units: the new frame is coming
  // The frame's data rectangle, placed in the wanted view (identical when they agree).
  const ChartView& f = impl.frame.view;
  const ChartView& v = impl.wanted;
  const auto sx = static_cast<double>(width) / (v.x1 - v.x0);
  const auto sy = static_cast<double>(height) / (v.y1 - v.y0);
  const ImVec2 top_left(x + static_cast<float>((f.x0 - v.x0) * sx),
                        y + static_cast<float>((v.y1 - f.y1) * sy));
  const ImVec2 bottom_right(x + static_cast<float>((f.x1 - v.x0) * sx),
                            y + static_cast<float>((v.y1 - f.y0) * sy));
  ImDrawList* draw_list = ImGui::GetWindowDrawList();
  draw_list->PushClipRect(ImVec2(x, y), ImVec2(x + width, y + height), true);
  // The cached texture is stored bottom row first: flip v.
  const auto texture = static_cast<intptr_t>(impl.renderer->texture());
  draw_list->AddImage(reinterpret_cast<ImTextureID>(texture), top_left, bottom_right, ImVec2(0, 1),
                      ImVec2(1, 0));
  draw_list->PopClipRect();
}

std::optional<uint32_t> ChartLayer::pick(double px, double py) const {
  const PickResult result = pick_result(px, py);
  if (result.kind != PickKind::Allocation) return std::nullopt;
  return result.elem;
}

PickResult ChartLayer::pick_result(double px, double py) const {
  const Impl& impl = *impl_;
  if (impl.timeline == nullptr || !impl.has_frame || impl.frame.instances.empty()) return {};
  const ChartView& f = impl.frame.view;
  const ChartView& v = impl.wanted;
  if (impl.frame.warp != impl.wanted_warp) return {};
  if (f != v) {  // a placeholder on screen: pick what it shows there
    const double data_x = v.x0 + px * v.steps_per_px(), data_y = v.y1 - py * v.bytes_per_px();
    px = (data_x - f.x0) / f.steps_per_px();
    py = (f.y1 - data_y) / f.bytes_per_px();
  }
  if (px < 0 || py < 0 || px >= f.width || py >= f.height) return {};
  return pick_at(*impl.timeline, impl.frame, px, py);
}

std::vector<ChartInstance> ChartLayer::instances_of(uint32_t elem) const {
  std::vector<ChartInstance> found;
  for (const ChartInstance& shape : impl_->frame.instances) {
    if (shape.elem == elem) found.push_back(shape);
  }
  return found;
}

size_t ChartLayer::instance_count() const { return impl_->frame.instances.size(); }

const std::vector<ChartInstance>& ChartLayer::instances() const { return impl_->frame.instances; }

const ChartView& ChartLayer::frame_view() const { return impl_->frame.view; }

}  // namespace snapscope
