#include "app/compare_view.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/table_columns.h"
#include "app/theme.h"
#include "core/analysis/live_elements.h"
#include "core/analysis/moment_table.h"
#include "core/analysis/source_location.h"
#include "core/analysis/state_mapping.h"
#include "core/util/format.h"

namespace snapscope {
namespace {

constexpr ImU32 kTotalColor = IM_COL32(255, 255, 255, 230);
constexpr ImU32 kReservedColor = IM_COL32(255, 170, 60, 200);

std::span<const AnnotationRecord> annotations_of(const Session& session) {
  const std::vector<AnnotationRecord>* records = session.annotations();
  return records ? std::span<const AnnotationRecord>(*records) : std::span<const AnnotationRecord>();
}

uint64_t reserved_at(const DeviceDocument& device, const Timeline& blocks, size_t state) {
  if (device.segments.action_count() == 0 && device.segments.element_count() == 0) return 0;
  const size_t segment_state =
      state == 0 ? 0 : state_after_event(device.segments, event_of_state(blocks, state));
  return device.segments.total_at_state(segment_state);
}

std::string signed_bytes(int64_t delta) {
  const std::string magnitude = format_bytes(static_cast<double>(delta < 0 ? -delta : delta));
  return (delta < 0 ? "-" : delta > 0 ? "+" : "") + magnitude;
}

MomentTable category_table(const Session& session, const Timeline& timeline, size_t state) {
  const Classification& classification = session.categories()->classification;
  return build_grouped_table(
      live_elements(timeline, state),
      [&](const LiveElement& element) { return uint32_t{classification.category(element.elem)}; },
      [&](uint32_t id) { return std::string(classification.names.name(static_cast<CategoryId>(id))); },
      state);
}

nlohmann::json rows_json(const MomentDiff& diff, size_t limit) {
  nlohmann::json rows = nlohmann::json::array();
  for (size_t i = 0; i < std::min(limit, diff.rows.size()); ++i) {
    const DiffRow& row = diff.rows[i];
    rows.push_back({{"location", row.location},
                    {"bytes_a", row.bytes_a},
                    {"bytes_b", row.bytes_b},
                    {"delta", row.delta()},
                    {"status", diff_status_name(row.status)}});
  }
  return rows;
}

}  // namespace

void CompareView::reset() {
  alignment_.reset();
  aligned_a_ = aligned_b_ = nullptr;
  diff_.reset();
  highlighted_.clear();
}

void CompareView::set_mode(AlignMode mode) {
  if (mode == mode_) return;
  mode_ = mode;
  alignment_.reset();
  diff_.reset();
}

const RunAlignment* CompareView::alignment(Session& a, Session& b) {
  const Timeline* ta = a.timeline();
  const Timeline* tb = b.device() ? &b.device()->blocks : nullptr;
  if (ta == nullptr || tb == nullptr) return nullptr;
  // Annotations arrive in the background: align again once both runs have theirs.
  const bool annotated = a.annotations() != nullptr && b.annotations() != nullptr;
  if (!alignment_ || aligned_a_ != ta || aligned_b_ != tb || aligned_with_annotations_ != annotated) {
    alignment_ = std::make_unique<RunAlignment>(*ta, *tb, mode_, annotations_of(a), annotations_of(b));
    aligned_a_ = ta;
    aligned_b_ = tb;
    aligned_with_annotations_ = annotated;
    diff_.reset();
  }
  return alignment_.get();
}

CompareView::Moments CompareView::moments(Session& a, Session& b) {
  const RunAlignment* aligned = alignment(a, b);
  Moments at;
  if (aligned == nullptr) return at;
  if (a.cursor.placed()) {
    at.a_state = a.cursor.state();
    at.b_state = aligned->b_state(at.a_state);
    at.at_peaks = false;
  } else {
    at.a_state = peak_state(*a.timeline());
    at.b_state = peak_state(b.device()->blocks);
  }
  return at;
}

const CompareView::Diff* CompareView::diff(Session& a, Session& b) {
  const auto catalog_a = a.stack_catalog();
  const auto catalog_b = b.stack_catalog();
  if (!catalog_a || !catalog_b || a.timeline() == nullptr || b.device() == nullptr) return nullptr;
  const Moments at = moments(a, b);
  const Timeline& ta = *a.timeline();
  const Timeline& tb = b.device()->blocks;
  const bool with_categories =
      a.categories() != nullptr && b.categories() != nullptr && b.categories()->timeline == &tb;
  if (diff_ && diff_->moments == at && diff_->a_timeline == &ta && diff_->b_timeline == &tb &&
      diff_->with_categories == with_categories)
    return &*diff_;
  Diff fresh;
  fresh.moments = at;
  fresh.a_timeline = &ta;
  fresh.b_timeline = &tb;
  fresh.with_categories = with_categories;
  LocationIndex locations_a(*catalog_a, LocationRule::FirstUserFrame);
  LocationIndex locations_b(*catalog_b, LocationRule::FirstUserFrame);
  fresh.live_a = live_elements(ta, at.a_state);
  for (const LiveElement& element : fresh.live_a)
    fresh.labels_a.emplace_back(locations_a.label(locations_a.location_of(element.stack)));
  fresh.by_location =
      diff_moments(build_moment_table(fresh.live_a, locations_a, at.a_state),
                   build_moment_table(live_elements(tb, at.b_state), locations_b, at.b_state));
  if (with_categories)
    fresh.by_category = diff_moments(category_table(a, ta, at.a_state), category_table(b, tb, at.b_state));
  diff_ = std::move(fresh);
  return &*diff_;
}

void CompareView::highlight(Session& a, const std::string& location) {
  highlighted_ = location;
  std::vector<uint32_t> members;
  if (diff_) {
    for (size_t i = 0; i < diff_->live_a.size(); ++i) {
      if (diff_->labels_a[i] == location) members.push_back(diff_->live_a[i].elem);
    }
  }
  a.highlights.group.assign(a.timeline()->element_count(), members);
}

void CompareView::draw_overlay(Session& a, Session& b, float x, float y, float width, float height) {
  const RunAlignment* aligned = alignment(a, b);
  if (aligned == nullptr) return;
  const Timeline& ta = *a.timeline();
  const DeviceDocument& device_b = *b.device();
  const DataRect visible = a.view.visible();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->PushClipRect(ImVec2(x, y), ImVec2(x + width, y + height), true);
  const auto to_y = [&](uint64_t bytes) {
    return y + static_cast<float>(a.view.to_screen_y(static_cast<double>(bytes)));
  };
  std::vector<ImVec2> total, reserved;
  const int columns = std::max(2, static_cast<int>(width / 2));
  for (int column = 0; column <= columns; ++column) {
    const double data_x = visible.x0 + (visible.x1 - visible.x0) * column / columns;
    const size_t b_state = aligned->b_state(state_shown_at(ta, data_x));
    const float px = x + width * static_cast<float>(column) / static_cast<float>(columns);
    total.emplace_back(px, to_y(device_b.blocks.total_at_state(b_state)));
    reserved.emplace_back(px, to_y(reserved_at(device_b, device_b.blocks, b_state)));
  }
  draw->AddPolyline(reserved.data(), static_cast<int>(reserved.size()), kReservedColor, 0, 1.5f);
  draw->AddPolyline(total.data(), static_cast<int>(total.size()), kTotalColor, 0, 2.0f);
  const std::string label = "B: " + b.document()->opened_path +
                            "  (total white, reserved orange; aligned by " +
                            align_mode_name(aligned->effective_mode()) + ")";
  draw->AddText(ImVec2(x + 6, y + 4), kTotalColor, label.c_str());
  draw->PopClipRect();
}

void CompareView::draw_summary(Session& a, Session& b, const Diff& shown) {
  const Timeline& ta = *shown.a_timeline;
  const Timeline& tb = *shown.b_timeline;
  const uint64_t peak_a = ta.peak_bytes(), peak_b = tb.peak_bytes();
  ImGui::Text("peak A %s at event #%lld, B %s at event #%lld: %s (%+.1f%%)",
              format_bytes(static_cast<double>(peak_a)).c_str(),
              static_cast<long long>(event_of_state(ta, peak_state(ta))),
              format_bytes(static_cast<double>(peak_b)).c_str(),
              static_cast<long long>(event_of_state(tb, peak_state(tb))),
              signed_bytes(static_cast<int64_t>(peak_b) - static_cast<int64_t>(peak_a)).c_str(),
              growth_percent(peak_a, peak_b));
  const uint64_t reserved_a = reserved_at(*a.device(), ta, shown.moments.a_state);
  const uint64_t reserved_b = reserved_at(*b.device(), tb, shown.moments.b_state);
  const auto fragmentation = [](uint64_t live, uint64_t reserved) {
    return reserved == 0 ? 0.0 : 100.0 * (1.0 - double(live) / double(reserved));
  };
  ImGui::Text("%s: A %s live, %s reserved (fragmentation %.1f%%) | B %s live, %s reserved (%.1f%%)",
              shown.moments.at_peaks ? "at the peaks" : "at the cursor",
              format_bytes(double(shown.by_location.live_a)).c_str(),
              format_bytes(double(reserved_a)).c_str(), fragmentation(shown.by_location.live_a, reserved_a),
              format_bytes(double(shown.by_location.live_b)).c_str(),
              format_bytes(double(reserved_b)).c_str(), fragmentation(shown.by_location.live_b, reserved_b));
}

void CompareView::draw_rows(Session& a, const MomentDiff& rows, bool locations) {
  if (!ImGui::BeginTable("compare-rows", 5,
                         ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_Resizable))
    return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("B - A", ImGuiTableColumnFlags_WidthFixed,
                          fit_column_width("B - A", "+999.99 MiB"));
  ImGui::TableSetupColumn("A", ImGuiTableColumnFlags_WidthFixed, fit_column_width("A", "999.99 MiB"));
  ImGui::TableSetupColumn("B", ImGuiTableColumnFlags_WidthFixed, fit_column_width("B", "999.99 MiB"));
  ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, fit_column_width("", "vanished"));
  ImGui::TableSetupColumn(locations ? "Location" : "Category", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  for (const DiffRow& row : rows.rows) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    const ImVec4 color = row.delta() > 0   ? ImVec4(1, 0.55f, 0.45f, 1)
                         : row.delta() < 0 ? ImVec4(0.5f, 0.85f, 0.5f, 1)
                                           : ImVec4(0.7f, 0.7f, 0.7f, 1);
    ImGui::TextColored(color, "%s", signed_bytes(row.delta()).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(format_bytes(static_cast<double>(row.bytes_a)).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(format_bytes(static_cast<double>(row.bytes_b)).c_str());
    ImGui::TableNextColumn();
    ImGui::TextDisabled("%s", diff_status_name(row.status));
    ImGui::TableNextColumn();
    const bool chosen = locations && row.location == highlighted_;
    if (ImGui::Selectable(row.location.c_str(), chosen, ImGuiSelectableFlags_SpanAllColumns) && locations)
      highlight(a, row.location);
  }
  ImGui::EndTable();
}

void CompareView::draw_panel(Session& a, Session& b) {
  const Diff* shown = diff(a, b);
  if (shown == nullptr) {
    ImGui::TextDisabled("loading both runs' stacks...");
    return;
  }
  const RunAlignment* aligned = alignment(a, b);
  draw_summary(a, b, *shown);
  ImGui::TextDisabled("align:");
  for (const AlignMode choice : {AlignMode::Events, AlignMode::Time, AlignMode::Steps}) {
    ImGui::SameLine();
    if (ImGui::RadioButton(align_mode_name(choice), mode_ == choice)) set_mode(choice);
  }
  if (aligned && aligned->effective_mode() != mode_) {
    ImGui::SameLine();
    ImGui::TextDisabled("(no matching %s: by events)",
                        mode_ == AlignMode::Time ? "timestamps" : "annotations");
  }
  ImGui::SameLine();
  ImGui::Checkbox("by category", &by_category_);
  if (by_category_ && !shown->with_categories) {
    ImGui::TextDisabled("classifying allocations...");
    return;
  }
  draw_rows(a, by_category_ ? shown->by_category : shown->by_location, !by_category_);
}

nlohmann::json CompareView::compare_json(Session& a, Session& b) {
  a.wait_settled();
  b.wait_settled();
  const Diff* shown = diff(a, b);
  if (shown == nullptr) return {{"loaded", false}};
  const RunAlignment* aligned = alignment(a, b);
  const Timeline& ta = *shown->a_timeline;
  const Timeline& tb = *shown->b_timeline;
  return {{"loaded", true},
          {"align", align_mode_name(mode_)},
          {"align_effective", align_mode_name(aligned->effective_mode())},
          {"anchors", aligned->anchor_count()},
          {"at_peaks", shown->moments.at_peaks},
          {"a_state", shown->moments.a_state},
          {"b_state", shown->moments.b_state},
          {"a_event", event_of_state(ta, shown->moments.a_state)},
          {"b_event", event_of_state(tb, shown->moments.b_state)},
          {"peak_a", ta.peak_bytes()},
          {"peak_b", tb.peak_bytes()},
          {"live_a", shown->by_location.live_a},
          {"live_b", shown->by_location.live_b},
          {"rows", rows_json(shown->by_location, 20)},
          {"category_rows", rows_json(shown->by_category, 32)}};
}

}  // namespace snapscope
