#include "app/chart_layer.h"

#include <imgui.h>

#include <cstdint>

#include "core/lod/lod_builder.h"
#include "core/lod/lod_pick.h"
#include "render/chart_renderer.h"

namespace snapscope {
namespace {

ChartView chart_view_of(const ViewTransform& view) {
  const DataRect& visible = view.visible();
  return {visible.x0,
          visible.x1,
          visible.y0,
          visible.y1,
          static_cast<int>(view.viewport_width()),
          static_cast<int>(view.viewport_height())};
}

}  // namespace

struct ChartLayer::Impl {
  const Timeline* timeline = nullptr;
  std::unique_ptr<LodBuilder> builder;
  std::unique_ptr<ChartRenderer> renderer;  // created lazily: needs the GL context
  std::vector<uint32_t> color_keys;
  bool colors_changed = false;
  LodFrame frame;
};

ChartLayer::ChartLayer() : impl_(std::make_unique<Impl>()) {}
ChartLayer::~ChartLayer() = default;

void ChartLayer::reset() {
  auto renderer = std::move(impl_->renderer);  // GL objects survive a document change
  impl_ = std::make_unique<Impl>();
  impl_->renderer = std::move(renderer);
}

void ChartLayer::set_color_keys(std::vector<uint32_t> keys) {
  impl_->color_keys = std::move(keys);
  impl_->colors_changed = true;
}

bool ChartLayer::update(const Timeline& timeline, const ViewTransform& view) {
  Impl& impl = *impl_;
  if (impl.timeline != &timeline) {
    impl.builder = std::make_unique<LodBuilder>(timeline);
    impl.timeline = &timeline;
    impl.colors_changed = true;
    impl.frame = {};
  }
  const ChartView wanted = chart_view_of(view);
  if (!impl.colors_changed && impl.frame.view == wanted && !impl.frame.instances.empty()) return false;
  if (impl.colors_changed) impl.builder->set_color_keys(impl.color_keys);
  impl.colors_changed = false;
  impl.frame = impl.builder->build(wanted);
  if (!impl.renderer) impl.renderer = std::make_unique<ChartRenderer>();
  impl.renderer->render(impl.frame);
  return true;
}

void ChartLayer::paint(float x, float y, float width, float height) const {
  if (!impl_->renderer || impl_->frame.instances.empty()) return;
  // The cached texture is stored bottom row first: flip v.
  const auto texture = static_cast<intptr_t>(impl_->renderer->texture());
  ImGui::GetWindowDrawList()->AddImage(reinterpret_cast<ImTextureID>(texture), ImVec2(x, y),
                                       ImVec2(x + width, y + height), ImVec2(0, 1), ImVec2(1, 0));
}

std::optional<uint32_t> ChartLayer::pick(double px, double py) const {
  const Impl& impl = *impl_;
  if (impl.timeline == nullptr || impl.frame.instances.empty()) return std::nullopt;
  if (px < 0 || py < 0 || px >= impl.frame.view.width || py >= impl.frame.view.height) return std::nullopt;
  const PickResult result = pick_at(*impl.timeline, impl.frame, px, py);
  if (result.kind != PickKind::Allocation) return std::nullopt;
  return result.elem;
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

}  // namespace snapscope
