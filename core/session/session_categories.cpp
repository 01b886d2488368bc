// Session: categories of the shown timeline, the findings, and user rules.
#include <exception>

#include "core/analysis/state_mapping.h"
#include "core/session/session.h"

namespace snapscope {

void Session::start_categories() {
  const Timeline* shown = timeline();
  categories_key_ = shown;
  findings_.clear();
  if (shown == nullptr || !catalog_.get() || !annotations_.get()) {
    categories_.cancel();
    return;
  }
  categories_.start(
      [shown, catalog = catalog_.get(), annotations = annotations_.get(), rules = rules_,
       warning = warning_](const std::atomic<bool>& cancelled) {
        const ClassifyInput input{*shown, *catalog, *annotations, rules ? &*rules : nullptr};
        auto result = std::make_shared<SessionCategories>(*shown, classify_allocations(input, &cancelled));
        FindingsInput findings{*shown, result->classification, *catalog, nullptr,
                               warning.empty() ? std::nullopt : std::optional(warning)};
        result->findings = find_findings(findings);
        return std::shared_ptr<const SessionCategories>(std::move(result));
      },
      ready_);
}

const SessionCategories* Session::categories() const {
  const SessionCategories* ready = categories_.get().get();
  return ready != nullptr && ready->timeline == timeline() ? ready : nullptr;
}

std::shared_ptr<const SessionCategories> Session::categories_handle() const {
  return categories() != nullptr ? categories_.get() : nullptr;
}

void Session::rebuild_findings() {
  findings_.clear();
  const SessionCategories* ready = categories();
  if (ready == nullptr) return;
  findings_ = ready->findings;
  AllocatorHistory* history = allocator_history();
  if (history == nullptr || settings.kind != TimelineKind::Blocks || history->ooms().empty()) return;
  try {
    FindingsInput input{*ready->timeline, ready->classification, *catalog_.get(), history, std::nullopt};
    std::vector<Finding> ooms = oom_findings(input);
    // Right after the peak, where the command line prints them.
    const auto after_peak = findings_.begin() + (findings_.empty() ? 0 : 1);
    findings_.insert(after_peak, ooms.begin(), ooms.end());
  } catch (const std::exception& failure) {
    error_ = failure.what();
  }
}

std::string Session::category_reason(uint32_t elem) const {
  const SessionCategories* ready = categories();
  if (ready == nullptr || elem >= ready->timeline->element_count()) return "";
  return classification_reason(ready->classification, *ready->timeline, *catalog_.get(), elem);
}

void Session::set_category_rules(std::optional<CategoryRules> rules) {
  rules_ = std::move(rules);
  categories_.cancel();
  categories_key_ = nullptr;  // the next poll() reclassifies
  findings_.clear();
}

void Session::activate(const Finding& finding) {
  const Timeline* shown = timeline();
  if (shown == nullptr || !finding.state) return;
  cursor.place(*shown, *finding.state);
  if (finding.elem && *finding.elem < shown->element_count()) select(*finding.elem);
}

}  // namespace snapscope
