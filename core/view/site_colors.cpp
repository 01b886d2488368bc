#include "core/view/site_colors.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "core/analysis/frame_kind.h"
#include "core/analysis/source_location.h"
#include "core/view/allocation_details.h"

namespace snapscope {

SiteColoring color_by_site(const ElementsDbReader& db, const ReplayInput& input) {
  const size_t element_count = input.elements.size();
  StackTextReader stacks(db);
  // Stacks are shared by many allocations: resolve each distinct one once.
  std::unordered_map<StackId, uint32_t> site_of_stack;
  std::unordered_map<std::string, uint32_t> site_of_label;
  std::vector<AllocationSite> sites;
  std::vector<uint32_t> unranked(element_count, 0);
  for (size_t elem = 0; elem < element_count; ++elem) {
    const ReplayElement& element = input.elements[elem];
    auto [it, inserted] = site_of_stack.try_emplace(element.stack, 0);
    if (inserted) {
      const std::vector<FrameText> frames = stacks.stack(element.stack);
      const std::string label = frames.empty() ? std::string(kUntracedLabel) : first_user_label(frames);
      auto [site, new_site] = site_of_label.try_emplace(label, static_cast<uint32_t>(sites.size()));
      if (new_site) sites.push_back({label, 0, 0});
      it->second = site->second;
    }
    unranked[elem] = it->second;
    sites[it->second].bytes += element.size;
    sites[it->second].count += 1;
  }
  std::vector<uint32_t> order(sites.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return sites[a].bytes > sites[b].bytes; });
  std::vector<uint32_t> rank(sites.size());
  SiteColoring coloring;
  for (uint32_t r = 0; r < order.size(); ++r) {
    rank[order[r]] = r;
    coloring.sites.push_back(sites[order[r]]);
  }
  coloring.keys.resize(element_count, 0);
  for (size_t elem = 0; elem < element_count; ++elem)
    coloring.keys[elem] = sites.empty() ? 0 : rank[unranked[elem]];
  return coloring;
}

}  // namespace snapscope
