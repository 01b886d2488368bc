#include "app/compare_view.h"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>

#include "app/location_text.h"
#include "app/strip_legend.h"
#include "app/table_columns.h"
#include "app/theme.h"
#include "core/analysis/live_elements.h"
#include "core/analysis/moment_table.h"
#include "core/analysis/source_location.h"
#include "core/analysis/state_mapping.h"
#include "core/cursor/call_tree_members.h"
#include "core/util/format.h"

namespace snapscope {

// One run at its compared moment: the live set, each live allocation's location, and its call tree.
struct CompareView::Side {
  std::shared_ptr<const StackCatalog> catalog;
  std::shared_ptr<const SessionCategories> categories;  // null until classified
  std::vector<LiveElement> live;
  std::vector<std::string> locations;  // parallel to live
  std::optional<CallTree> tree;        // top-down, filtered frames
};

struct CompareView::Diff {
  Key key;
  Side a, b;
  MomentDiff by_location;
  MomentDiff by_category;  // empty until both runs are classified
  CallTreeDiff by_path;
};

namespace {

constexpr ImU32 kTotalColor = IM_COL32(80, 240, 255, 255);     // B's total: cyan, on a dark halo
constexpr ImU32 kReservedColor = IM_COL32(255, 170, 60, 255);  // B's reserved: orange
constexpr ImU32 kHiddenColor = IM_COL32(255, 200, 80, 255);    // notes on what of B is not shown
constexpr float kBLineWidth = 2.5f;
constexpr size_t kMaxChildrenShown = 200;   // wider call-path nodes show their largest changes
constexpr uint32_t kDefaultOpenDepth = 12;  // the largest change is opened this deep at first
constexpr float kPathIndent = 8;            // pixels per call-path level

std::span<const AnnotationRecord> annotations_of(const Session& session) {
  const std::vector<AnnotationRecord>* records = session.annotations();
  return records ? std::span<const AnnotationRecord>(*records) : std::span<const AnnotationRecord>();
}

uint64_t reserved_at(const DeviceDocument& device, const Timeline& blocks, size_t state) {
  return device.reserved.after_event(state == 0 ? -1 : event_of_state(blocks, state));
}

// The first step drawn for `state` (the steps of the action that follows it).
double x_of_state(const Timeline& timeline, size_t state) {
  return state < timeline.action_count() ? static_cast<double>(timeline.step_begin(state))
                                         : static_cast<double>(timeline.timesteps());
}

MomentTable category_table(const SessionCategories& categories, const std::vector<LiveElement>& live,
                           size_t state) {
  const Classification& classification = categories.classification;
  return build_grouped_table(
      live, [&](const LiveElement& element) { return uint32_t{classification.category(element.elem)}; },
      [&](uint32_t id) { return std::string(classification.names.name(static_cast<CategoryId>(id))); },
      state);
}

std::string category_of(const SessionCategories& categories, uint32_t elem) {
  const Classification& classification = categories.classification;
  return std::string(classification.names.name(classification.category(elem)));
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

// Computes one side on the worker: nothing here touches the session, only what the key and the
// shared handles keep alive.
CompareView::Side make_side(std::shared_ptr<const StackCatalog> catalog,
                            std::shared_ptr<const SessionCategories> categories, const Timeline& timeline,
                            size_t state) {
  CompareView::Side side;
  side.catalog = std::move(catalog);
  side.categories = std::move(categories);
  side.live = live_elements(timeline, state);
  LocationIndex locations(*side.catalog, LocationRule::FirstUserFrame);
  side.locations.reserve(side.live.size());
  for (const LiveElement& element : side.live)
    side.locations.emplace_back(locations.label(locations.location_of(element.stack)));
  side.tree = build_call_tree(side.live, *side.catalog);
  return side;
}

MomentTable location_table(const CompareView::Side& side, size_t state) {
  LocationIndex locations(*side.catalog, LocationRule::FirstUserFrame);
  return build_moment_table(side.live, locations, state);
}

}  // namespace

CompareView::~CompareView() {
  if (pending_.valid()) pending_.wait();
}

void CompareView::reset() {
  if (pending_.valid()) pending_.wait();
  pending_ = {};
  pending_key_.reset();
  alignment_.reset();
  aligned_a_ = aligned_b_ = nullptr;
  diff_.reset();
  highlighted_.reset();
  open_paths_.clear();
  paths_toggled_ = false;
}

void CompareView::set_mode(AlignMode mode) {
  if (mode == mode_) return;
  mode_ = mode;
  alignment_.reset();
}

void CompareView::set_grouping(Grouping grouping) { grouping_ = grouping; }

bool CompareView::settled() const { return !pending_.valid(); }

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
  }
  return alignment_.get();
}

std::optional<CompareView::Key> CompareView::wanted_key(Session& a, Session& b) {
  const RunAlignment* aligned = alignment(a, b);
  if (aligned == nullptr || !a.stack_catalog() || !b.stack_catalog()) return std::nullopt;
  Key key;
  key.a_timeline = a.timeline();
  key.b_timeline = &b.device()->blocks;
  if (a.cursor.placed()) {
    key.a_state = a.cursor.state();
    key.b_state = aligned->b_state(key.a_state);
    key.at_peaks = false;
  } else {
    key.a_state = peak_state(*key.a_timeline);
    key.b_state = peak_state(*key.b_timeline);
  }
  const SessionCategories* ca = a.categories();
  const SessionCategories* cb = b.categories();
  if (ca != nullptr && cb != nullptr && cb->timeline == key.b_timeline) {
    key.a_categories = ca;
    key.b_categories = cb;
  }
  return key;
}

void CompareView::start(const Key& key, Session& a, Session& b) {
  auto catalog_a = a.stack_catalog();
  auto catalog_b = b.stack_catalog();
  auto categories_a = key.a_categories ? a.categories_handle() : nullptr;
  auto categories_b = key.b_categories ? b.categories_handle() : nullptr;
  pending_key_ = key;
  pending_ = std::async(std::launch::async, [key, catalog_a, catalog_b, categories_a, categories_b] {
    auto fresh = std::make_shared<Diff>();
    fresh->key = key;
    fresh->a = make_side(catalog_a, categories_a, *key.a_timeline, key.a_state);
    fresh->b = make_side(catalog_b, categories_b, *key.b_timeline, key.b_state);
    fresh->by_location =
        diff_moments(location_table(fresh->a, key.a_state), location_table(fresh->b, key.b_state));
    if (categories_a && categories_b) {
      fresh->by_category = diff_moments(category_table(*categories_a, fresh->a.live, key.a_state),
                                        category_table(*categories_b, fresh->b.live, key.b_state));
    }
    fresh->by_path = diff_call_trees(*fresh->a.tree, *fresh->a.catalog, *fresh->b.tree, *fresh->b.catalog);
    return std::shared_ptr<const Diff>(std::move(fresh));
  });
}

void CompareView::take_finished(bool wait) {
  if (!pending_.valid()) return;
  if (!wait && pending_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
  diff_ = pending_.get();
  pending_key_.reset();
}

std::shared_ptr<const CompareView::Diff> CompareView::diff(Session& a, Session& b, bool wait) {
  const std::optional<Key> wanted = wanted_key(a, b);
  if (!wanted) return nullptr;
  const auto previous = diff_;
  const auto have_wanted = [&] { return diff_ && diff_->key == *wanted; };
  take_finished(false);
  // One computation at a time: a stale one finishes first (it is shown meanwhile).
  if (!have_wanted() && !pending_.valid()) start(*wanted, a, b);
  while (wait && !have_wanted()) {
    take_finished(true);
    if (!have_wanted()) start(*wanted, a, b);
  }
  if (diff_ != previous && diff_) apply_highlight(a, b);  // the same row, at the new moments
  return diff_;
}

bool CompareView::result_waiting() const {
  return pending_.valid() && pending_.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

void CompareView::apply_highlight(Session& a, Session& b) {
  if (!highlighted_ || !diff_) return;
  const Diff& shown = *diff_;
  std::vector<uint32_t> members_a, members_b;
  const auto by_label = [&](const Side& side, std::vector<uint32_t>& members) {
    for (size_t i = 0; i < side.live.size(); ++i) {
      const bool member =
          highlighted_->grouping == Grouping::Location
              ? side.locations[i] == highlighted_->label
              : side.categories && category_of(*side.categories, side.live[i].elem) == highlighted_->label;
      if (member) members.push_back(side.live[i].elem);
    }
  };
  if (highlighted_->grouping == Grouping::CallPath) {
    // Find the clicked path again in this diff (node ids change with every moment).
    std::optional<uint32_t> node;
    for (uint32_t id = 0; id < shown.by_path.size() && !node; ++id) {
      if (shown.by_path.path_text(id) == highlighted_->path) node = id;
    }
    if (node) {
      const TreeDiffNode& found = shown.by_path.node(*node);
      highlighted_->path_node = *node;
      for (uint32_t member : found.nodes_a) {
        const auto under = elements_under(*shown.a.tree, member, shown.a.live, *shown.a.catalog);
        members_a.insert(members_a.end(), under.begin(), under.end());
      }
      for (uint32_t member : found.nodes_b) {
        const auto under = elements_under(*shown.b.tree, member, shown.b.live, *shown.b.catalog);
        members_b.insert(members_b.end(), under.begin(), under.end());
      }
    }
  } else {
    by_label(shown.a, members_a);
    by_label(shown.b, members_b);
  }
  a.highlights.group.assign(shown.key.a_timeline->element_count(), members_a);
  if (b.timeline() == shown.key.b_timeline)
    b.highlights.group.assign(shown.key.b_timeline->element_count(), members_b);
}

void CompareView::highlight(Session& a, Session& b, Highlight chosen) {
  highlighted_ = std::move(chosen);
  apply_highlight(a, b);
}

void CompareView::draw_overlay(Session& a, Session& b, float x, float y, float width, float height) {
  const RunAlignment* aligned = alignment(a, b);
  if (aligned == nullptr) return;
  const Timeline& ta = *a.timeline();
  const DeviceDocument& device_b = *b.device();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->PushClipRect(ImVec2(x, y), ImVec2(x + width, y + height), true);
  const auto to_y = [&](uint64_t bytes) {
    return y + static_cast<float>(a.view.to_screen_y(static_cast<double>(bytes)));
  };
  std::vector<ImVec2> total, reserved;
  const int columns = std::max(2, static_cast<int>(width / 2));
  for (int column = 0; column <= columns; ++column) {
    const double data_x = a.view.to_data_x(a.view.viewport_width() * column / columns);
    const size_t b_state = aligned->b_state(state_shown_at(ta, data_x));
    const float px = x + width * static_cast<float>(column) / static_cast<float>(columns);
    total.emplace_back(px, to_y(device_b.blocks.total_at_state(b_state)));
    reserved.emplace_back(px, to_y(reserved_at(device_b, device_b.blocks, b_state)));
  }
  // A dark halo under each line: B stays visible over any of A's colours.
  draw->AddPolyline(reserved.data(), static_cast<int>(reserved.size()), theme::kHalo, 0, kBLineWidth + 2);
  draw->AddPolyline(reserved.data(), static_cast<int>(reserved.size()), kReservedColor, 0, kBLineWidth);
  draw->AddPolyline(total.data(), static_cast<int>(total.size()), theme::kHalo, 0, kBLineWidth + 2);
  draw->AddPolyline(total.data(), static_cast<int>(total.size()), kTotalColor, 0, kBLineWidth);
  const float legend_bottom = draw_b_legend(b, *aligned, x, y, width);
  draw_b_peak(a, b, *aligned, x, width, legend_bottom, to_y);
  draw->PopClipRect();
}

float CompareView::draw_b_legend(const Session& b, const RunAlignment& aligned, float x, float y,
                                 float width) const {
  const std::string name = std::filesystem::path(b.document()->opened_path).filename().string();
  const LegendEntry key[] = {
      {kTotalColor, "B total: " + name},
      {kReservedColor, "B reserved"},
      {IM_COL32(0, 0, 0, 0), std::string("aligned by ") + align_mode_name(aligned.effective_mode())}};
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw_strip_legend(draw, ImVec2(x + 4, y + 4), key, width - 8);
  // What of B this axis cannot show: the alignment puts it before A's start or after A's end.
  const auto [first, last] = aligned.b_reached();
  const Timeline& tb = b.device()->blocks;
  std::string hidden;
  if (first > 0) hidden = "B's first " + format_count(first, "action") + " fall before A's start";
  if (last < tb.action_count())
    hidden += (hidden.empty() ? "B's last " : "; its last ") +
              format_count(tb.action_count() - last, "action") + " after A's end";
  const float line = ImGui::GetTextLineHeightWithSpacing();
  if (hidden.empty()) return y + 4 + line;
  hidden += " (align events shows all of B)";
  const LegendEntry note[] = {{kHiddenColor, hidden}};
  draw_strip_legend(draw, ImVec2(x + 4, y + 6 + line), note, width - 8);
  return y + 6 + 2 * line;
}

void CompareView::draw_b_peak(const Session& a, const Session& b, const RunAlignment& aligned, float x,
                              float width, float text_y, const std::function<float(uint64_t)>& to_y) const {
  const Timeline& tb = b.device()->blocks;
  const size_t peak = peak_state(tb);
  const std::string what = "B's peak " + format_bytes(static_cast<double>(tb.peak_bytes())) + " at event #" +
                           std::to_string(event_of_state(tb, peak));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const std::optional<size_t> a_state = aligned.a_state_for(peak);
  if (!a_state) {
    const LegendEntry note[] = {{kHiddenColor, what + " is off A's axis under this alignment"}};
    draw_strip_legend(draw, ImVec2(x + 4, text_y), note, width - 8);
    return;
  }
  const float px = x + static_cast<float>(a.view.to_screen_x(x_of_state(*a.timeline(), *a_state)));
  const float py = to_y(tb.peak_bytes());
  draw->AddTriangleFilled(ImVec2(px - 6, py - 10), ImVec2(px + 6, py - 10), ImVec2(px, py), theme::kHalo);
  draw->AddTriangleFilled(ImVec2(px - 4, py - 9), ImVec2(px + 4, py - 9), ImVec2(px, py - 2), kTotalColor);
  if (px < x || px > x + width) {
    const LegendEntry note[] = {{kHiddenColor, what + " is outside the view (zoom out)"}};
    draw_strip_legend(draw, ImVec2(x + 4, text_y), note, width - 8);
  }
}

void CompareView::follow_a(Session& a, Session& b) {
  const RunAlignment* aligned = alignment(a, b);
  if (aligned == nullptr || b.timeline() == nullptr) return;
  const Timeline& ta = *a.timeline();
  const Timeline& tb = b.device()->blocks;
  if (b.timeline() != &tb) b.select_kind(TimelineKind::Blocks);  // the alignment is of B's blocks
  const DataRect va = a.view.visible();
  DataRect vb = va;  // A's byte scale: equal heights mean equal bytes
  vb.x0 = x_of_state(tb, aligned->b_state(state_shown_at(ta, va.x0)));
  vb.x1 = std::max(vb.x0 + 1, x_of_state(tb, aligned->b_state(state_shown_at(ta, va.x1)) + 1));
  b.settings.y_fit.enabled = false;
  b.settings.time_axis = a.settings.time_axis;
  b.sync_time_axis();
  // B's own bounds end near B's peak: grow them to A's, or the byte range would be clamped to
  // B's and the charts' scales would differ.
  if (b.view.bounds().y1 < a.view.bounds().y1) {
    DataRect bounds = b.view.bounds();
    bounds.y1 = a.view.bounds().y1;
    b.view.set_bounds(bounds);
  }
  b.view.set_visible(vb);
  if (a.cursor.placed()) {
    b.cursor.place(tb, aligned->b_state(a.cursor.state()));
  } else {
    b.cursor.clear();
  }
}

void CompareView::draw_b_label(const Session& b, float x, float y) const {
  if (b.document() == nullptr) return;
  const std::string name = std::filesystem::path(b.document()->opened_path).filename().string();
  // follow_a gives B A's visible byte range: equal heights are equal bytes in both charts.
  const LegendEntry key[] = {
      {kTotalColor, "B: " + name + " (aligned by " +
                        std::string(alignment_ ? align_mode_name(alignment_->effective_mode()) : "events") +
                        "; same byte scale as A)"}};
  draw_strip_legend(ImGui::GetWindowDrawList(), ImVec2(x + 4, y + 4), key,
                    ImGui::GetContentRegionAvail().x + ImGui::GetCursorScreenPos().x - x);
}

void CompareView::draw_summary(Session& a, Session& b, const Diff& shown) {
  const Timeline& ta = *shown.key.a_timeline;
  const Timeline& tb = *shown.key.b_timeline;
  const uint64_t peak_a = ta.peak_bytes(), peak_b = tb.peak_bytes();
  ImGui::Text("peak A %s at event #%lld, B %s at event #%lld: %s (%+.1f%%)",
              format_bytes(static_cast<double>(peak_a)).c_str(),
              static_cast<long long>(event_of_state(ta, peak_state(ta))),
              format_bytes(static_cast<double>(peak_b)).c_str(),
              static_cast<long long>(event_of_state(tb, peak_state(tb))),
              format_signed_bytes(static_cast<int64_t>(peak_b) - static_cast<int64_t>(peak_a)).c_str(),
              growth_percent(peak_a, peak_b));
  const uint64_t reserved_a = reserved_at(*a.device(), ta, shown.key.a_state);
  const uint64_t reserved_b = reserved_at(*b.device(), tb, shown.key.b_state);
  const auto fragmentation = [](uint64_t live, uint64_t reserved) {
    return reserved == 0 ? 0.0 : 100.0 * (1.0 - double(live) / double(reserved));
  };
  ImGui::Text("%s: A %s live, %s reserved (fragmentation %.1f%%) | B %s live, %s reserved (%.1f%%)",
              shown.key.at_peaks ? "at the peaks" : "at the cursor",
              format_bytes(double(shown.by_location.live_a)).c_str(),
              format_bytes(double(reserved_a)).c_str(), fragmentation(shown.by_location.live_a, reserved_a),
              format_bytes(double(shown.by_location.live_b)).c_str(),
              format_bytes(double(reserved_b)).c_str(), fragmentation(shown.by_location.live_b, reserved_b));
}

namespace {

bool begin_diff_table(const char* id, const char* name_column, bool name_first) {
  if (!ImGui::BeginTable(id, 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_Resizable))
    return false;
  ImGui::TableSetupScrollFreeze(0, 1);
  if (name_first) ImGui::TableSetupColumn(name_column, ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("B - A", ImGuiTableColumnFlags_WidthFixed,
                          fit_column_width("B - A", "+999.99 MiB"));
  ImGui::TableSetupColumn("A", ImGuiTableColumnFlags_WidthFixed, fit_column_width("A", "999.99 MiB"));
  ImGui::TableSetupColumn("B", ImGuiTableColumnFlags_WidthFixed, fit_column_width("B", "999.99 MiB"));
  ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, fit_column_width("", "vanished"));
  if (!name_first) ImGui::TableSetupColumn(name_column, ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  return true;
}

void draw_byte_columns(int64_t delta, uint64_t a, uint64_t b, DiffStatus status) {
  ImGui::TableNextColumn();
  const ImVec4 color = delta > 0   ? ImVec4(1, 0.55f, 0.45f, 1)
                       : delta < 0 ? ImVec4(0.5f, 0.85f, 0.5f, 1)
                                   : ImVec4(0.7f, 0.7f, 0.7f, 1);
  ImGui::TextColored(color, "%s", format_signed_bytes(delta).c_str());
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(format_bytes(static_cast<double>(a)).c_str());
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(format_bytes(static_cast<double>(b)).c_str());
  ImGui::TableNextColumn();
  ImGui::TextDisabled("%s", diff_status_name(status));
}

}  // namespace

void CompareView::draw_rows(Session& a, Session& b, const MomentDiff& rows, Grouping grouping) {
  if (!begin_diff_table("compare-rows", grouping == Grouping::Location ? "Location" : "Category", false))
    return;
  for (const DiffRow& row : rows.rows) {
    ImGui::TableNextRow();
    draw_byte_columns(row.delta(), row.bytes_a, row.bytes_b, row.status);
    ImGui::TableNextColumn();
    const bool chosen =
        highlighted_ && highlighted_->grouping == grouping && highlighted_->label == row.location;
    const std::string shown = elide_location(row.location, ImGui::GetContentRegionAvail().x);
    ImGui::PushID(row.location.c_str());
    if (ImGui::Selectable(shown.c_str(), chosen, ImGuiSelectableFlags_SpanAllColumns))
      highlight(a, b, {grouping, row.location, 0, {}});
    full_text_tooltip(row.location, shown);
    ImGui::PopID();
  }
  ImGui::EndTable();
}

// Rows in display order: the root, then the children of every open row (largest change first).
std::vector<uint32_t> CompareView::shown_path_rows(const CallTreeDiff& tree) const {
  return display_order(
      tree, [&](uint32_t node) { return open_paths_.contains(tree.path_text(node)); },
      [](uint32_t, size_t index) { return index < kMaxChildrenShown; });
}

void CompareView::draw_path_node(Session& a, Session& b, const CallTreeDiff& tree, uint32_t id) {
  const TreeDiffNode& node = tree.node(id);
  const std::string path = tree.path_text(id);
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::PushID(static_cast<int>(id));
  const bool leaf = node.children.empty();
  ImGuiTreeNodeFlags flags = ImGuiTreeNodeFlags_OpenOnArrow | ImGuiTreeNodeFlags_SpanFullWidth;
  if (leaf) flags |= ImGuiTreeNodeFlags_Leaf | ImGuiTreeNodeFlags_NoTreePushOnOpen;
  if (highlighted_ && highlighted_->grouping == Grouping::CallPath && highlighted_->path == path)
    flags |= ImGuiTreeNodeFlags_Selected;
  const bool was_open = open_paths_.contains(path);
  ImGui::SetNextItemOpen(was_open);
  const std::string shown_label =
      elide_location(node.label, ImGui::GetContentRegionAvail().x - ImGui::GetTreeNodeToLabelSpacing());
  const bool open = ImGui::TreeNodeEx("##path", flags, "%s", shown_label.c_str());
  full_text_tooltip(node.label, shown_label);
  if (ImGui::IsItemToggledOpen()) {
    paths_toggled_ = true;
    if (open) {
      open_paths_.insert(path);
    } else {
      open_paths_.erase(path);
    }
  } else if (ImGui::IsItemClicked()) {
    highlight(a, b, {Grouping::CallPath, {}, id, path});
  }
  draw_byte_columns(node.delta(), node.bytes_a, node.bytes_b, node.status);
  if (open && !leaf) {
    const size_t shown = std::min(node.children.size(), kMaxChildrenShown);
    for (size_t i = 0; i < shown; ++i) draw_path_node(a, b, tree, node.children[i]);
    if (shown < node.children.size()) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextDisabled("(%zu smaller changes not shown)", node.children.size() - shown);
    }
    ImGui::TreePop();
  }
  ImGui::PopID();
}

// At first the largest change is opened down its path (a default, until the user toggles a row).
void CompareView::open_default_paths(const CallTreeDiff& tree) {
  if (paths_toggled_) return;
  open_paths_.clear();
  for (uint32_t id = CallTreeDiff::kRoot;
       !tree.node(id).children.empty() && tree.node(id).depth < kDefaultOpenDepth;
       id = tree.node(id).children.front()) {
    open_paths_.insert(tree.path_text(id));
  }
}

void CompareView::draw_path_rows(Session& a, Session& b, const Diff& shown) {
  const CallTreeDiff& tree = shown.by_path;
  open_default_paths(tree);
  if (!begin_diff_table("compare-paths", "Call path (caller -> callee)", true)) return;
  ImGui::PushStyleVar(ImGuiStyleVar_IndentSpacing, kPathIndent);  // deep stacks keep their labels
  draw_path_node(a, b, tree, CallTreeDiff::kRoot);
  ImGui::PopStyleVar();
  ImGui::EndTable();
}

void CompareView::draw_panel(Session& a, Session& b) {
  const std::shared_ptr<const Diff> shown = diff(a, b, false);
  if (shown == nullptr) {
    ImGui::TextDisabled(a.stack_catalog() && b.stack_catalog() ? "comparing..."
                                                               : "loading both runs' stacks...");
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
  ImGui::TextDisabled("B:");
  ImGui::SameLine();
  if (ImGui::RadioButton("over A", layout_ == Layout::Overlay)) layout_ = Layout::Overlay;
  ImGui::SameLine();
  if (ImGui::RadioButton("own chart", layout_ == Layout::Stacked)) layout_ = Layout::Stacked;
  ImGui::SameLine(0, 24);
  ImGui::TextDisabled("rows by:");
  const std::pair<Grouping, const char*> groupings[] = {
      {Grouping::Location, "location"}, {Grouping::Category, "category"}, {Grouping::CallPath, "call path"}};
  for (const auto& [choice, name] : groupings) {
    ImGui::SameLine();
    if (ImGui::RadioButton(name, grouping_ == choice)) set_grouping(choice);
  }
  if (pending_.valid()) {
    ImGui::SameLine();
    ImGui::TextDisabled("(updating...)");
  }
  ImGui::SameLine(0, 24);
  if (ImGui::SmallButton("Copy CSV")) {  // both tables, as snapscope-convert --diff --summary csv
    ImGui::SetClipboardText((std::string(kMomentDiffCsvHeader) +
                             moment_diff_csv_rows(shown->by_location, "location") +
                             moment_diff_csv_rows(shown->by_category, "category"))
                                .c_str());
  }
  switch (grouping_) {
    case Grouping::Location:
      draw_rows(a, b, shown->by_location, Grouping::Location);
      break;
    case Grouping::Category:
      if (shown->key.a_categories == nullptr) {
        ImGui::TextDisabled("classifying allocations...");
        break;
      }
      draw_rows(a, b, shown->by_category, Grouping::Category);
      break;
    case Grouping::CallPath:
      draw_path_rows(a, b, *shown);
      break;
  }
}

bool CompareView::click_row(Session& a, Session& b, size_t index) {
  a.wait_settled();
  b.wait_settled();
  const std::shared_ptr<const Diff> shown = diff(a, b, true);
  if (shown == nullptr) return false;
  if (grouping_ == Grouping::CallPath) {
    open_default_paths(shown->by_path);
    const std::vector<uint32_t> rows = shown_path_rows(shown->by_path);
    if (index >= rows.size()) return false;
    highlight(a, b, {Grouping::CallPath, {}, rows[index], shown->by_path.path_text(rows[index])});
    return true;
  }
  const MomentDiff& rows = grouping_ == Grouping::Location ? shown->by_location : shown->by_category;
  if (index >= rows.rows.size()) return false;
  highlight(a, b, {grouping_, rows.rows[index].location, 0, {}});
  return true;
}

nlohmann::json CompareView::compare_json(Session& a, Session& b) {
  a.wait_settled();
  b.wait_settled();
  const std::shared_ptr<const Diff> shown = diff(a, b, true);
  if (shown == nullptr) return {{"loaded", false}};
  const RunAlignment* aligned = alignment(a, b);
  const Timeline& ta = *shown->key.a_timeline;
  const Timeline& tb = *shown->key.b_timeline;
  open_default_paths(shown->by_path);
  nlohmann::json highlighted = nullptr;
  if (highlighted_) {
    highlighted = {
        {"row", highlighted_->grouping == Grouping::CallPath ? highlighted_->path : highlighted_->label},
        {"a_elements", a.highlights.group.count()},
        {"b_elements", b.highlights.group.count()}};
  }
  return {{"loaded", true},
          {"align", align_mode_name(mode_)},
          {"align_effective", align_mode_name(aligned->effective_mode())},
          {"anchors", aligned->anchor_count()},
          {"layout", layout_ == Layout::Stacked ? "stacked" : "overlay"},
          {"at_peaks", shown->key.at_peaks},
          {"a_state", shown->key.a_state},
          {"b_state", shown->key.b_state},
          {"a_event", event_of_state(ta, shown->key.a_state)},
          {"b_event", event_of_state(tb, shown->key.b_state)},
          {"peak_a", ta.peak_bytes()},
          {"peak_b", tb.peak_bytes()},
          {"live_a", shown->by_location.live_a},
          {"live_b", shown->by_location.live_b},
          {"rows", rows_json(shown->by_location, 20)},
          {"category_rows", rows_json(shown->by_category, 32)},
          {"path_rows", call_tree_diff_rows_json(shown->by_path, shown_path_rows(shown->by_path))},
          {"highlighted", highlighted}};
}

}  // namespace snapscope
