#include "core/findings/step_boundaries.h"

#include <map>
#include <string>

namespace snapscope {

std::vector<size_t> step_starts(const Classification& classification) {
  std::map<std::string, std::vector<size_t>> by_name;
  for (const PlacedAnnotation& annotation : classification.annotations)
    by_name[annotation.name].push_back(annotation.first_action);
  std::vector<size_t> best;
  for (auto& [name, starts] : by_name) {
    // The most repeated range; on a tie, the one that starts first (the step's outermost).
    if (starts.size() > best.size() || (starts.size() == best.size() && !best.empty() && starts[0] < best[0]))
      best = starts;
  }
  if (best.size() >= 2) return best;
  best.clear();
  Phase previous = Phase::None;
  for (const PhaseRegion& region : classification.phases.regions()) {
    if (region.phase == Phase::Forward && previous != Phase::Forward && previous != Phase::None)
      best.push_back(region.first_action);
    if (region.phase == Phase::Forward && previous == Phase::None) best.push_back(region.first_action);
    previous = region.phase;
  }
  return best;
}

bool expected_to_persist(CategoryId category) {
  return category == category_id(Category::Parameter) || category == category_id(Category::OptimizerState) ||
         category == category_id(Category::Gradient) || category == category_id(Category::Workspace);
}

bool made_while_recording(const Timeline& timeline, uint32_t elem) {
  return timeline.ever_live(elem) && !timeline.in_initial_stack(elem) &&
         timeline.element(elem).origin == Origin::Traced;
}

}  // namespace snapscope
