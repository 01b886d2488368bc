#include "core/findings/findings.h"

#include "core/analysis/state_mapping.h"

namespace snapscope {

const char* finding_kind_name(FindingKind kind) {
  switch (kind) {
    case FindingKind::Peak:
      return "peak";
    case FindingKind::Leak:
      return "leak";
    case FindingKind::StepGrowth:
      return "step growth";
    case FindingKind::Oom:
      return "oom";
    case FindingKind::Caveat:
      return "caveat";
    case FindingKind::LiveAtEnd:
      return "live at end";
  }
  return "caveat";
}

std::vector<Finding> find_findings(const FindingsInput& input) {
  std::vector<Finding> findings;
  if (auto peak = peak_finding(input)) findings.push_back(std::move(*peak));
  for (Finding& oom : oom_findings(input)) findings.push_back(std::move(oom));
  if (auto growth = step_growth_finding(input)) findings.push_back(std::move(*growth));
  if (auto leak = leak_finding(input)) findings.push_back(std::move(*leak));
  if (auto live = live_at_end_finding(input)) findings.push_back(std::move(*live));
  for (Finding& caveat : recording_caveats(input)) findings.push_back(std::move(caveat));
  return findings;
}

std::string findings_text(const std::vector<Finding>& findings) {
  if (findings.empty()) return "no findings\n";
  std::string text;
  for (const Finding& finding : findings) {
    text += std::string("[") + finding_kind_name(finding.kind) + "] " + finding.title + "\n";
    size_t begin = 0;
    while (begin < finding.text.size()) {
      size_t end = finding.text.find('\n', begin);
      if (end == std::string::npos) end = finding.text.size();
      text += "    " + finding.text.substr(begin, end - begin) + "\n";
      begin = end + 1;
    }
  }
  return text;
}

nlohmann::json findings_json(const std::vector<Finding>& findings, const Timeline& timeline) {
  nlohmann::json list = nlohmann::json::array();
  for (const Finding& finding : findings) {
    nlohmann::json entry = {{"kind", finding_kind_name(finding.kind)},
                            {"title", finding.title},
                            {"text", finding.text},
                            {"bytes", finding.bytes},
                            {"state", nullptr},
                            {"event", nullptr},
                            {"elem", nullptr}};
    if (finding.state) {
      entry["state"] = *finding.state;
      const int64_t event = event_of_state(timeline, *finding.state);
      if (event >= 0) entry["event"] = event;
    }
    if (finding.elem) entry["elem"] = *finding.elem;
    list.push_back(std::move(entry));
  }
  return list;
}

}  // namespace snapscope
