#include "app/chart/category_strip.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "app/widgets/theme.h"
#include "core/analysis/state_mapping.h"
#include "core/classify/category.h"
#include "core/classify/category_evidence.h"
#include "core/util/format.h"

namespace snapscope {
namespace {

constexpr float kStripHeight = 90;

// How sure one category is at `moment` and why (one scan of the live allocations, on hover only).
void evidence_tooltip(const SessionCategories& categories, size_t moment, CategoryId id) {
  for (const CategoryEvidence& entry :
       category_evidence_at(categories.classification, *categories.timeline, moment)) {
    if (entry.category != id) continue;
    ImGui::BeginTooltip();
    if (id == category_id(Category::Unknown)) {
      ImGui::TextUnformatted("no evidence holds:");
    } else {
      ImGui::Text("certain %s, likely %s", format_bytes(static_cast<double>(entry.certain)).c_str(),
                  format_bytes(static_cast<double>(entry.likely)).c_str());
    }
    for (const ReasonBytes& reason : entry.reasons)
      ImGui::Text("%10s  %s", format_bytes(static_cast<double>(reason.bytes)).c_str(),
                  reason_summary(reason.reason));
    ImGui::EndTooltip();
  }
}

void draw_legend(const Session& session, const SessionCategories& categories, std::vector<uint64_t>& bytes) {
  const Timeline& timeline = *categories.timeline;
  const size_t moment = session.cursor.placed() ? session.cursor.state() : peak_state(timeline);
  categories.totals.bytes_at(moment, bytes);
  const std::vector<Rgba> palette = category_palette(categories.classification.names);
  ImGui::TextDisabled("%s", session.cursor.placed() ? "at the cursor:" : "at the peak:");
  for (size_t id = 0; id < bytes.size(); ++id) {
    const std::string label = std::string(categories.classification.names.name(static_cast<CategoryId>(id))) +
                              " " + format_bytes(static_cast<double>(bytes[id]));
    const float item_width = ImGui::GetTextLineHeight() + ImGui::CalcTextSize(label.c_str()).x +
                             3 * ImGui::GetStyle().ItemSpacing.x;
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < item_width)
      ImGui::NewLine();  // wrap a legend too wide for the pane
    theme::color_swatch(palette[id]);
    ImGui::SameLine();
    ImGui::TextUnformatted(label.c_str());
    if (ImGui::IsItemHovered() && bytes[id] > 0)
      evidence_tooltip(categories, moment, static_cast<CategoryId>(id));
  }
}

}  // namespace

float category_view_height() { return 2 * ImGui::GetTextLineHeightWithSpacing() + kStripHeight + 6; }

void CategoryStrip::refresh(const Key& key, const std::vector<double>& edges) {
  key_ = key;
  const size_t count = key.categories->totals.category_count();
  column_bytes_.assign(static_cast<size_t>(key.columns) * count, 0);
  const Timeline& timeline = *key.categories->timeline;
  for (int column = 0; column < key.columns; ++column) {
    const double x = (edges[static_cast<size_t>(column)] + edges[static_cast<size_t>(column) + 1]) / 2;
    key.categories->totals.bytes_at(state_shown_at(timeline, x), scratch_);
    std::copy(scratch_.begin(), scratch_.end(),
              column_bytes_.begin() + static_cast<ptrdiff_t>(column * count));
  }
}

void CategoryStrip::draw(Session& session, float left, float width) {
  ImGui::BeginChild("category-view", ImVec2(width, category_view_height()), false);
  const SessionCategories* categories = session.categories();
  if (categories == nullptr) {
    ImGui::TextDisabled("classifying allocations...");
    ImGui::EndChild();
    return;
  }
  draw_legend(session, *categories, scratch_);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float strip_width = std::max(1.0f, width - left);
  const DataRect visible = session.view.visible();
  const Key key{categories, visible.x0, visible.x1, static_cast<int>(strip_width), session.view.warp().get()};
  if (!(key == key_)) {
    ViewTransform strip = session.view;  // the chart's x range over the strip's columns
    strip.set_viewport(key.columns, strip.viewport_height());
    refresh(key, strip.column_edges(key.columns));
  }
  const size_t count = categories->totals.category_count();
  const std::vector<Rgba> palette = category_palette(categories->classification.names);
  const double top = static_cast<double>(std::max<uint64_t>(categories->timeline->peak_bytes(), 1));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float x0 = origin.x + left, bottom = origin.y + kStripHeight;
  draw->AddRectFilled(ImVec2(x0, origin.y), ImVec2(x0 + strip_width, bottom),
                      theme::to_imgui(kDefaultBackground, 1));
  for (int column = 0; column < key.columns; ++column) {
    double below = 0;
    for (size_t id = 0; id < count; ++id) {
      const double bytes = static_cast<double>(column_bytes_[static_cast<size_t>(column) * count + id]);
      if (bytes <= 0) continue;
      const float y_low = bottom - static_cast<float>(below / top * kStripHeight);
      below += bytes;
      const float y_high = bottom - static_cast<float>(below / top * kStripHeight);
      const float x = x0 + static_cast<float>(column);
      draw->AddRectFilled(ImVec2(x, y_high), ImVec2(x + 1, y_low), theme::to_imgui(palette[id], 1));
    }
  }
  ImGui::SetCursorScreenPos(ImVec2(x0, origin.y));
  ImGui::InvisibleButton("category-strip", ImVec2(strip_width, kStripHeight));
  if (ImGui::IsItemHovered()) {
    const int column = std::clamp(static_cast<int>(ImGui::GetIO().MousePos.x - x0), 0, key.columns - 1);
    std::string text;
    for (size_t id = 0; id < count; ++id) {
      const uint64_t bytes = column_bytes_[static_cast<size_t>(column) * count + id];
      if (bytes > 0)
        text += std::string(categories->classification.names.name(static_cast<CategoryId>(id))) + ": " +
                format_bytes(static_cast<double>(bytes)) + "\n";
    }
    ImGui::SetTooltip("%s", text.empty() ? "nothing live" : text.c_str());
  }
  ImGui::EndChild();
}

}  // namespace snapscope
