// Session: what follows the cursor and the annotations, computed in the background — the phase
// table of the shown timeline and the cursor's analysis (call trees, moment table).
#include "core/analysis/frame_kind.h"
#include "core/session/session.h"

namespace snapscope {

const PhaseTable* Session::phase_table(const std::string& filter) {
  const Timeline* shown = timeline();
  if (shown == nullptr) return nullptr;
  const PhaseKey wanted{shown, settings.device, filter};
  phase_wanted_key_ = wanted;
  const bool same_timeline =
      phase_shown_key_ && phase_shown_key_->timeline == shown && phase_shown_key_->device == settings.device;
  const PhaseTable* current = same_timeline ? phase_table_.get() : nullptr;
  const auto* records = annotations();
  if (phase_shown_key_ == wanted || phase_build_.running() || records == nullptr) return current;
  phase_building_key_ = wanted;
  phase_build_.start(
      [records = annotations_.get(), wanted](const std::atomic<bool>&) {
        return std::make_shared<const PhaseTable>(
            build_phase_table(*wanted.timeline, pair_annotations(*records, wanted.device), wanted.filter));
      },
      ready_);
  return current;
}

uint32_t Session::phase_depth_levels(const std::string& filter) {
  const Timeline* shown = timeline();
  const std::shared_ptr<const std::vector<AnnotationRecord>>& records = annotations_.get();
  if (shown == nullptr || records == nullptr) return 0;
  const PhaseKey wanted{shown, settings.device, filter};
  if (phase_levels_ && phase_levels_->key == wanted && phase_levels_->annotations == records)
    return phase_levels_->levels;
  if (!timed_timeline_ || timed_timeline_->first != shown)
    timed_timeline_.emplace(shown, shown->input().has_action_times());
  const uint32_t levels = snapscope::phase_depth_levels(pair_annotations(*records, settings.device), filter,
                                                        timed_timeline_->second);
  phase_levels_ = PhaseLevels{wanted, records, levels};
  return levels;
}

bool Session::phase_table_current(const std::string& filter) const {
  const Timeline* shown = timeline();
  return shown == nullptr || phase_shown_key_ == PhaseKey{shown, settings.device, filter};
}

std::optional<AnalysisRequest> Session::analysis_request(const AnalysisOptions& options) const {
  const Timeline* shown = timeline();
  if (shown == nullptr || !cursor.placed() || !catalog_.get()) return std::nullopt;
  return AnalysisRequest{shown,
                         catalog_.get(),
                         cursor.state(),
                         options.filter_frames,
                         options.location_rule,
                         wrapper_libraries_generation()};
}

void Session::request_analysis(const AnalysisOptions& options) {
  auto request = analysis_request(options);
  if (!request || (analysis_requested_ && *analysis_requested_ == *request)) return;
  analysis_requested_ = request;
  analysis_worker_.request(std::move(*request));
}

bool Session::analysis_matches(const CursorAnalysis& analysis, const AnalysisOptions& options) const {
  return analysis.timeline == timeline() && analysis.state == cursor.state() &&
         analysis.filtered == options.filter_frames && analysis.location_rule == options.location_rule;
}

std::shared_ptr<const CursorAnalysis> Session::analysis_now(const AnalysisOptions& options) {
  if (timeline() == nullptr || !cursor.placed()) return nullptr;
  wait_database();
  catalog_.wait();
  if (analysis_ && analysis_matches(*analysis_, options)) return analysis_;
  analysis_worker_.wait_idle();
  if (auto result = analysis_worker_.take_result(); result && analysis_matches(*result, options)) {
    analysis_ = std::move(result);
  } else if (auto request = analysis_request(options)) {
    analysis_ = AnalysisWorker::compute(*request);
    analysis_requested_ = request;
  } else {
    return nullptr;
  }
  ++analysis_generation_;
  return analysis_;
}

}  // namespace snapscope
