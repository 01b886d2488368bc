// The rank table of one job (snapscope DIR, where DIR holds per-rank snapshots or their
// X.rank.json summaries): one row per rank with its peak, deviation from the median rank,
// when, reserved, phase and top location / category at the peak, and a small chart of its total
// over time. A rank opens on demand; two ticked ranks open as a comparison (A and B).
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/app_state.h"
#include "core/compare/rank_table.h"
#include "core/session/background_result.h"

namespace snapscope {

class RankTablePanel {
 public:
  // Starts reading the ranks of `directory` in the background.
  void load(const std::string& directory, int device);
  bool active() const { return !directory_.empty(); }
  bool loading() const { return table_.running(); }
  void wait() { table_.wait(); }
  const std::string& error() const { return table_.error(); }
  const RankTable* table() const { return table_.get().get(); }

  void poll() { table_.poll(); }
  void draw(AppState& app);

  // Script hooks: the table as JSON, open rank i, compare ranks i and j (A and B).
  nlohmann::json table_json() const;
  void open_rank(AppState& app, size_t rank) const;
  void compare_ranks(AppState& app, size_t a, size_t b) const;

 private:
  void draw_row(AppState& app, size_t index, const RankRow& row);

  std::string directory_;
  BackgroundResult<const RankTable> table_;
  std::vector<size_t> ticked_;  // at most two, oldest first
  bool shown_ = true;
};

}  // namespace snapscope
