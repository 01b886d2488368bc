#include "app/chart_layer.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "core/lod/lod_builder.h"
#include "core/lod/lod_pick.h"
#include "app/palette.h"

namespace snapscope {
namespace {

ImU32 color_for(const ChartInstance& instance) {
  return instance.is_aggregate() ? kAggregateColor : palette_color(instance.color_key);
}

ChartView chart_view_of(const ViewTransform& view) {
  const DataRect& visible = view.visible();
  return {visible.x0, visible.x1, visible.y0, visible.y1, static_cast<int>(view.viewport_width()),
          static_cast<int>(view.viewport_height())};
}

}  // namespace

struct ChartLayer::Impl {
  const Timeline* timeline = nullptr;
  std::unique_ptr<LodBuilder> builder;
  std::vector<uint32_t> color_keys;
  bool colors_changed = false;
  LodFrame frame;
};

ChartLayer::ChartLayer() : impl_(std::make_unique<Impl>()) {}
ChartLayer::~ChartLayer() = default;

void ChartLayer::reset() { impl_ = std::make_unique<Impl>(); }

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
  return true;
}

void ChartLayer::paint(float x, float y, float width, float height) const {
  const LodFrame& frame = impl_->frame;
  if (frame.instances.empty()) return;
  ImDrawList* draw_list = ImGui::GetWindowDrawList();
  draw_list->PushClipRect(ImVec2(x, y), ImVec2(x + width, y + height), true);
  // Anti-aliased fill fringes would bleed half a pixel into neighbouring columns; the chart
  // must show each column's exact height.
  const ImDrawListFlags saved_flags = draw_list->Flags;
  draw_list->Flags &= ~ImDrawListFlags_AntiAliasedFill;
  const auto px_per_step = static_cast<float>(1.0 / frame.view.steps_per_px());
  const auto px_per_byte = static_cast<float>(1.0 / frame.view.bytes_per_px());
  const float base = y + height;
  for (const ChartInstance& shape : frame.instances) {
    const float left = x + shape.x0 * px_per_step, right = x + shape.x1 * px_per_step;
    const float bottom0 = base - shape.bottom0 * px_per_byte, bottom1 = base - shape.bottom1 * px_per_byte;
    const float tall = shape.height * px_per_byte;
    draw_list->AddQuadFilled(ImVec2(left, bottom0), ImVec2(right, bottom1), ImVec2(right, bottom1 - tall),
                             ImVec2(left, bottom0 - tall), color_for(shape));
  }
  draw_list->Flags = saved_flags;
  draw_list->PopClipRect();
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

}  // namespace snapscope
