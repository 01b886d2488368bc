#include "core/session/comparison.h"

#include <algorithm>
#include <stdexcept>

#include "core/analysis/moment_table.h"
#include "core/analysis/source_location.h"
#include "core/analysis/state_mapping.h"
#include "core/cursor/call_tree_members.h"
#include "core/cursor/time_cursor.h"

namespace snapscope {

namespace {

std::span<const AnnotationRecord> annotations_of(const Session& session) {
  const std::vector<AnnotationRecord>* records = session.annotations();
  return records ? std::span<const AnnotationRecord>(*records) : std::span<const AnnotationRecord>();
}

std::string category_of(const SessionCategories& categories, uint32_t elem) {
  const Classification& classification = categories.classification;
  return std::string(classification.names.name(classification.category(elem)));
}

MomentTable category_table(const SessionCategories& categories, const std::vector<LiveElement>& live,
                           size_t state) {
  const Classification& classification = categories.classification;
  return build_grouped_table(
      live, [&](const LiveElement& element) { return uint32_t{classification.category(element.elem)}; },
      [&](uint32_t id) { return std::string(classification.names.name(static_cast<CategoryId>(id))); },
      state);
}

MomentTable location_table(const ComparedSide& side, size_t state) {
  LocationIndex locations(*side.catalog, LocationRule::FirstUserFrame);
  return build_moment_table(side.live, locations, state);
}

void check_cancelled(const std::atomic<bool>& cancelled) {
  if (cancelled) throw std::runtime_error("comparison cancelled");
}

// One side, on the worker: nothing here touches a session, only what the moments and the shared
// handles keep alive.
ComparedSide make_side(std::shared_ptr<const StackCatalog> catalog,
                       std::shared_ptr<const SessionCategories> categories, const Timeline& timeline,
                       size_t state) {
  ComparedSide side;
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

struct DiffInputs {
  ComparedMoments at;
  std::shared_ptr<const StackCatalog> catalog_a, catalog_b;
  std::shared_ptr<const SessionCategories> categories_a, categories_b;  // both or neither
};

std::shared_ptr<const ComparisonDiff> compute_diff(const DiffInputs& in, const std::atomic<bool>& cancelled) {
  auto fresh = std::make_shared<ComparisonDiff>();
  fresh->at = in.at;
  fresh->a = make_side(in.catalog_a, in.categories_a, *in.at.a_timeline, in.at.a_state);
  check_cancelled(cancelled);
  fresh->b = make_side(in.catalog_b, in.categories_b, *in.at.b_timeline, in.at.b_state);
  check_cancelled(cancelled);
  fresh->by_location =
      diff_moments(location_table(fresh->a, in.at.a_state), location_table(fresh->b, in.at.b_state));
  if (in.categories_a && in.categories_b) {
    fresh->by_category = diff_moments(category_table(*in.categories_a, fresh->a.live, in.at.a_state),
                                      category_table(*in.categories_b, fresh->b.live, in.at.b_state));
  }
  check_cancelled(cancelled);
  fresh->by_path = diff_call_trees(*fresh->a.tree, *fresh->a.catalog, *fresh->b.tree, *fresh->b.catalog);
  return fresh;
}

// The live elements of `side` in the highlighted location or category.
std::vector<uint32_t> members_by_label(const ComparedSide& side, const CompareHighlight& row) {
  std::vector<uint32_t> members;
  for (size_t i = 0; i < side.live.size(); ++i) {
    const bool member =
        row.grouping == CompareGrouping::Location
            ? side.locations[i] == row.label
            : side.categories && category_of(*side.categories, side.live[i].elem) == row.label;
    if (member) members.push_back(side.live[i].elem);
  }
  return members;
}

// The live elements under the tree nodes `nodes` of `side`'s call tree.
std::vector<uint32_t> members_under(const ComparedSide& side, const std::vector<uint32_t>& nodes) {
  std::vector<uint32_t> members;
  for (uint32_t node : nodes) {
    const auto under = elements_under(*side.tree, node, side.live, *side.catalog);
    members.insert(members.end(), under.begin(), under.end());
  }
  return members;
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

Comparison::Comparison(Session& a, std::unique_ptr<Session> b, std::function<void()> ready)
    : a_(&a), b_(std::move(b)), ready_(std::move(ready)) {
  if (!b_) throw std::invalid_argument("Comparison: run B is missing");
}

Comparison::~Comparison() { build_.cancel(); }

void Comparison::rebind_a(Session& a) {
  build_.cancel();
  a_ = &a;
  alignment_.reset();
  aligned_a_ = aligned_b_ = nullptr;
  diff_.reset();
  highlighted_.reset();
  b_->highlights.group.clear();
}

void Comparison::set_mode(AlignMode mode) {
  if (mode == mode_) return;
  mode_ = mode;
  alignment_.reset();
}

const RunAlignment* Comparison::alignment() {
  const Timeline* ta = a_->timeline();
  const Timeline* tb = b_->device() ? &b_->device()->blocks : nullptr;
  if (ta == nullptr || tb == nullptr) return nullptr;
  // Annotations arrive in the background: align again once both runs have theirs.
  const bool annotated = a_->annotations() != nullptr && b_->annotations() != nullptr;
  if (!alignment_ || aligned_a_ != ta || aligned_b_ != tb || aligned_with_annotations_ != annotated) {
    alignment_ = std::make_unique<RunAlignment>(*ta, *tb, mode_, annotations_of(*a_), annotations_of(*b_));
    aligned_a_ = ta;
    aligned_b_ = tb;
    aligned_with_annotations_ = annotated;
  }
  return alignment_.get();
}

std::optional<ComparedMoments> Comparison::wanted() {
  const RunAlignment* aligned = alignment();
  if (aligned == nullptr || !a_->stack_catalog() || !b_->stack_catalog()) return std::nullopt;
  ComparedMoments at;
  at.a_timeline = a_->timeline();
  at.b_timeline = &b_->device()->blocks;
  if (a_->cursor.placed()) {
    at.a_state = a_->cursor.state();
    at.b_state = aligned->b_state(at.a_state);
    at.at_peaks = false;
  } else {
    at.a_state = peak_state(*at.a_timeline);
    at.b_state = peak_state(*at.b_timeline);
  }
  const SessionCategories* ca = a_->categories();
  const SessionCategories* cb = b_->categories();
  if (ca != nullptr && cb != nullptr && cb->timeline == at.b_timeline) {
    at.a_categories = ca;
    at.b_categories = cb;
  }
  return at;
}

void Comparison::start(const ComparedMoments& at) {
  DiffInputs inputs{at, a_->stack_catalog(), b_->stack_catalog(), nullptr, nullptr};
  if (at.a_categories) {
    inputs.categories_a = a_->categories_handle();
    inputs.categories_b = b_->categories_handle();
  }
  build_.start([inputs = std::move(inputs)](
                   const std::atomic<bool>& cancelled) { return compute_diff(inputs, cancelled); },
               ready_);
}

bool Comparison::take_finished() {
  if (!build_.poll()) return false;
  adopt_result();
  return true;
}

void Comparison::adopt_result() {
  if (!build_.get()) return;
  diff_ = build_.get();
  apply_highlight();  // the same row, at the new moments
}

bool Comparison::poll() {
  bool arrived = b_->poll();
  if (take_finished()) arrived = true;
  return arrived;
}

std::shared_ptr<const ComparisonDiff> Comparison::diff() {
  const std::optional<ComparedMoments> at = wanted();
  if (!at) return nullptr;
  take_finished();
  // One computation at a time: a stale one finishes first (it is shown meanwhile).
  if ((!diff_ || diff_->at != *at) && !build_.running()) start(*at);
  return diff_;
}

std::shared_ptr<const ComparisonDiff> Comparison::diff_now() {
  a_->wait_settled();
  b_->wait_settled();
  const std::optional<ComparedMoments> at = wanted();
  if (!at) return nullptr;
  while (!diff_ || diff_->at != *at) {
    if (!build_.running()) start(*at);
    build_.wait();  // and takes it
    if (!build_.get()) throw std::runtime_error("compare: " + build_.error());
    adopt_result();
  }
  return diff_;
}

void Comparison::highlight(std::optional<CompareHighlight> row) {
  highlighted_ = std::move(row);
  if (!highlighted_) {
    a_->highlights.group.clear();
    b_->highlights.group.clear();
    return;
  }
  apply_highlight();
}

void Comparison::apply_highlight() {
  if (!highlighted_ || !diff_) return;
  const ComparisonDiff& shown = *diff_;
  std::vector<uint32_t> members_a, members_b;
  if (highlighted_->grouping == CompareGrouping::CallPath) {
    // Find the chosen path again in this diff (node ids change with every moment).
    for (uint32_t id = 0; id < shown.by_path.size(); ++id) {
      if (shown.by_path.path_text(id) != highlighted_->label) continue;
      members_a = members_under(shown.a, shown.by_path.node(id).nodes_a);
      members_b = members_under(shown.b, shown.by_path.node(id).nodes_b);
      break;
    }
  } else {
    members_a = members_by_label(shown.a, *highlighted_);
    members_b = members_by_label(shown.b, *highlighted_);
  }
  if (a_->timeline() == shown.at.a_timeline)
    a_->highlights.group.assign(shown.at.a_timeline->element_count(), members_a);
  if (b_->timeline() == shown.at.b_timeline)
    b_->highlights.group.assign(shown.at.b_timeline->element_count(), members_b);
}

void Comparison::follow_a() {
  const RunAlignment* aligned = alignment();
  if (aligned == nullptr || b_->timeline() == nullptr) return;
  const Timeline& ta = *a_->timeline();
  const Timeline& tb = b_->device()->blocks;
  if (b_->timeline() != &tb) b_->select_kind(TimelineKind::Blocks);  // the alignment is of B's blocks
  const DataRect va = a_->view.visible();
  DataRect vb = va;  // A's byte scale: equal heights mean equal bytes
  vb.x0 = state_x(tb, aligned->b_state(state_shown_at(ta, va.x0)));
  vb.x1 = std::max(vb.x0 + 1, state_x(tb, aligned->b_state(state_shown_at(ta, va.x1)) + 1));
  b_->settings.y_fit.enabled = false;
  b_->settings.time_axis = a_->settings.time_axis;
  b_->sync_time_axis();
  // B's own bounds end near B's peak: grow them to A's, or the byte range would be clamped to
  // B's and the charts' scales would differ.
  if (b_->view.bounds().y1 < a_->view.bounds().y1) {
    DataRect bounds = b_->view.bounds();
    bounds.y1 = a_->view.bounds().y1;
    b_->view.set_bounds(bounds);
  }
  b_->view.set_visible(vb);
  if (a_->cursor.placed()) {
    b_->cursor.place(tb, aligned->b_state(a_->cursor.state()));
  } else {
    b_->cursor.clear();
  }
}

nlohmann::json Comparison::json(const ComparisonDiff& shown, std::span<const uint32_t> path_rows) {
  const RunAlignment* aligned = alignment();
  const Timeline& ta = *shown.at.a_timeline;
  const Timeline& tb = *shown.at.b_timeline;
  nlohmann::json highlighted = nullptr;
  if (highlighted_) {
    highlighted = {{"row", highlighted_->label},
                   {"a_elements", a_->highlights.group.count()},
                   {"b_elements", b_->highlights.group.count()}};
  }
  return {{"loaded", true},
          {"align", align_mode_name(mode_)},
          {"align_effective", align_mode_name(aligned->effective_mode())},
          {"anchors", aligned->anchor_count()},
          {"at_peaks", shown.at.at_peaks},
          {"a_state", shown.at.a_state},
          {"b_state", shown.at.b_state},
          {"a_event", event_of_state(ta, shown.at.a_state)},
          {"b_event", event_of_state(tb, shown.at.b_state)},
          {"peak_a", ta.peak_bytes()},
          {"peak_b", tb.peak_bytes()},
          {"live_a", shown.by_location.live_a},
          {"live_b", shown.by_location.live_b},
          {"rows", rows_json(shown.by_location, 20)},
          {"category_rows", rows_json(shown.by_category, 32)},
          {"path_rows", call_tree_diff_rows_json(shown.by_path, path_rows)},
          {"highlighted", highlighted}};
}

}  // namespace snapscope
