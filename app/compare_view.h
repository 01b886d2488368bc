// Two runs compared (snapscope A B): run B's total and reserved curves drawn over A's chart on
// A's x axis (aligned by events, time or matching annotations), and the Compare tab: the diff of
// the two runs at A's cursor and B's aligned moment (the two peaks before a cursor is placed),
// by location and by category, sorted by |B - A|, new and vanished rows marked; clicking a row
// outlines its allocations in A's chart. Numbers come from core/compare.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/compare/moment_diff.h"
#include "core/compare/run_alignment.h"
#include "core/session/session.h"

namespace snapscope {

class CompareView {
 public:
  void reset();  // either run changed
  void set_mode(AlignMode mode);
  AlignMode mode() const { return mode_; }

  void draw_overlay(Session& a, Session& b, float x, float y, float width, float height);
  void draw_panel(Session& a, Session& b);
  // The panel's content as one JSON object (script print-compare); waits for stacks and categories.
  nlohmann::json compare_json(Session& a, Session& b);

 private:
  struct Moments {
    size_t a_state = 0, b_state = 0;
    bool at_peaks = true;
    bool operator==(const Moments&) const = default;
  };
  struct Diff {
    Moments moments;
    const Timeline* a_timeline = nullptr;
    const Timeline* b_timeline = nullptr;
    bool with_categories = false;
    MomentDiff by_location;
    MomentDiff by_category;
    std::vector<LiveElement> live_a;
    std::vector<std::string> labels_a;  // parallel to live_a: each one's location
  };
  const RunAlignment* alignment(Session& a, Session& b);
  Moments moments(Session& a, Session& b);
  const Diff* diff(Session& a, Session& b);  // null until both runs' stacks are loaded
  void highlight(Session& a, const std::string& location);
  void draw_summary(Session& a, Session& b, const Diff& shown);
  void draw_rows(Session& a, const MomentDiff& rows, bool locations);

  AlignMode mode_ = AlignMode::Steps;
  std::unique_ptr<RunAlignment> alignment_;
  const Timeline* aligned_a_ = nullptr;
  const Timeline* aligned_b_ = nullptr;
  bool aligned_with_annotations_ = false;
  std::optional<Diff> diff_;
  bool by_category_ = false;
  std::string highlighted_;
};

}  // namespace snapscope
