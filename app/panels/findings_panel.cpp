#include "app/panels/findings_panel.h"

#include <imgui.h>

#include <string>

namespace snapscope {
namespace {

ImVec4 kind_color(FindingKind kind) {
  switch (kind) {
    case FindingKind::Oom:
      return ImVec4(1.0f, 0.45f, 0.45f, 1);
    case FindingKind::Leak:
    case FindingKind::StepGrowth:
      return ImVec4(1.0f, 0.75f, 0.35f, 1);
    case FindingKind::Caveat:
    case FindingKind::LiveAtEnd:  // a neutral fact, not a warning
      return ImVec4(0.7f, 0.7f, 0.7f, 1);
    case FindingKind::Peak:
      break;
  }
  return ImVec4(0.55f, 0.8f, 1.0f, 1);
}

}  // namespace

void draw_findings_panel(Session& session) {
  if (session.categories() == nullptr) {
    ImGui::TextDisabled("classifying allocations...");
    return;
  }
  const std::vector<Finding>& findings = session.findings();
  if (findings.empty()) ImGui::TextDisabled("nothing to report");
  ImGui::BeginChild("findings", ImVec2(0, 0), false);
  for (size_t i = 0; i < findings.size(); ++i) {
    const Finding& finding = findings[i];
    ImGui::PushID(static_cast<int>(i));
    ImGui::TextColored(kind_color(finding.kind), "[%s]", finding_kind_name(finding.kind));
    ImGui::SameLine();
    if (finding.state) {
      if (ImGui::SmallButton("show")) session.activate(finding);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("put the cursor (and the selection) where this points");
      ImGui::SameLine();
    }
    ImGui::TextWrapped("%s", finding.title.c_str());
    ImGui::Indent();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", finding.text.c_str());
    ImGui::PopStyleColor();
    ImGui::Unindent();
    ImGui::Spacing();
    ImGui::PopID();
  }
  ImGui::EndChild();
}

}  // namespace snapscope
