#include "core/classify/category_evidence.h"

#include <algorithm>

#include "core/util/format.h"

namespace snapscope {

std::vector<CategoryEvidence> category_evidence_at(const Classification& classification,
                                                   const Timeline& timeline, size_t state) {
  const size_t reason_count = static_cast<size_t>(Reason::NoEvidence) + 1;
  std::vector<CategoryEvidence> out(classification.names.size());
  std::vector<std::vector<uint64_t>> by_reason(out.size(), std::vector<uint64_t>(reason_count, 0));
  std::vector<LiveAllocation> live;
  timeline.live_at(state, live);
  for (const LiveAllocation& allocation : live) {
    const CategoryId category = classification.categories[allocation.elem];
    CategoryEvidence& entry = out[category];
    entry.bytes += allocation.size;
    const Strength strength = classification.strength(allocation.elem);
    if (strength == Strength::Certain) entry.certain += allocation.size;
    if (strength == Strength::Likely) entry.likely += allocation.size;
    by_reason[category][static_cast<size_t>(classification.reasons[allocation.elem])] += allocation.size;
  }
  for (size_t id = 0; id < out.size(); ++id) {
    out[id].category = static_cast<CategoryId>(id);
    for (size_t r = 0; r < reason_count; ++r) {
      if (by_reason[id][r] > 0) out[id].reasons.push_back({static_cast<Reason>(r), by_reason[id][r]});
    }
    std::stable_sort(out[id].reasons.begin(), out[id].reasons.end(),
                     [](const ReasonBytes& a, const ReasonBytes& b) { return a.bytes > b.bytes; });
  }
  std::erase_if(out, [](const CategoryEvidence& entry) { return entry.bytes == 0; });
  std::stable_sort(out.begin(), out.end(),
                   [](const CategoryEvidence& a, const CategoryEvidence& b) { return a.bytes > b.bytes; });
  return out;
}

std::string category_evidence_text(const Classification& classification,
                                   const std::vector<CategoryEvidence>& evidence) {
  std::string text;
  for (const CategoryEvidence& entry : evidence) {
    text += "  " + std::string(classification.names.name(entry.category)) + " " +
            format_bytes(static_cast<double>(entry.bytes)) + ":";
    if (entry.certain > 0) text += " certain " + format_bytes(static_cast<double>(entry.certain));
    if (entry.likely > 0)
      text += std::string(entry.certain > 0 ? "," : "") + " likely " +
              format_bytes(static_cast<double>(entry.likely));
    if (entry.certain + entry.likely == 0) text += " no evidence holds";
    text += "\n";
    for (const ReasonBytes& reason : entry.reasons) {
      text += "      " + format_bytes(static_cast<double>(reason.bytes)) + "  " +
              reason_summary(reason.reason) + "\n";
    }
  }
  return text;
}

nlohmann::json category_evidence_json(const Classification& classification,
                                      const std::vector<CategoryEvidence>& evidence) {
  nlohmann::json certain = nlohmann::json::object(), likely = nlohmann::json::object();
  nlohmann::json reasons = nlohmann::json::array();
  uint64_t unknown = 0;
  for (const CategoryEvidence& entry : evidence) {
    const std::string name(classification.names.name(entry.category));
    if (entry.certain > 0) certain[name] = entry.certain;
    if (entry.likely > 0) likely[name] = entry.likely;
    unknown += entry.bytes - entry.certain - entry.likely;
    for (const ReasonBytes& reason : entry.reasons) {
      const bool is_unknown = entry.category == category_id(Category::Unknown);
      reasons.push_back(
          {{"category", name},
           {"strength", strength_name(is_unknown ? Strength::None : reason_strength(reason.reason))},
           {"reason", reason_summary(reason.reason)},
           {"bytes", reason.bytes}});
    }
  }
  return {{"certain", certain}, {"likely", likely}, {"unknown", unknown}, {"reasons", reasons}};
}

}  // namespace snapscope
