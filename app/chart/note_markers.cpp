#include "app/chart/note_markers.h"

#include <imgui.h>

#include <cmath>
#include <string>

#include "app/widgets/theme.h"
#include "core/analysis/state_mapping.h"
#include "core/cursor/time_cursor.h"
#include "core/util/format.h"

namespace snapscope {
namespace {

constexpr float kMarkerHalfWidth = 4.0f, kMarkerHeight = 7.0f;

void draw_note_tooltip(const AnnotateEventRow& note, const std::pair<double, double>& pointer) {
  ImGui::SetNextWindowPos(
      ImVec2(static_cast<float>(pointer.first) + 16, static_cast<float>(pointer.second) + 16));
  ImGui::BeginTooltip();
  ImGui::Text("note at event #%lld on %s", static_cast<long long>(note.event),
              format_address(note.address).c_str());
  ImGui::TextUnformatted(note.metadata.empty() ? "(no metadata)" : note.metadata.c_str());
  ImGui::TextDisabled("torch.cuda.memory._annotate_memory; select the allocation to see all its notes");
  ImGui::EndTooltip();
}

}  // namespace

size_t draw_note_markers(const Session& session, float x, float y, float width,
                         const std::optional<std::pair<double, double>>& pointer) {
  const std::vector<AnnotateEventRow>* notes = session.memory_notes();
  const Timeline* timeline = session.timeline();
  if (notes == nullptr || timeline == nullptr || notes->empty()) return 0;
  ImDrawList* draw_list = ImGui::GetWindowDrawList();
  const bool at_top = pointer && pointer->second >= y && pointer->second <= y + kMarkerHeight + 2;
  float last_drawn = -1e9f;
  const AnnotateEventRow* hovered = nullptr;
  size_t drawn = 0;
  for (const AnnotateEventRow& note : *notes) {
    const size_t note_state = state_after_event(*timeline, note.event);
    const float marker_x = x + static_cast<float>(session.view.to_screen_x(state_x(*timeline, note_state)));
    if (marker_x < x || marker_x > x + width) continue;
    if (at_top && std::fabs(pointer->first - marker_x) <= kMarkerHalfWidth) hovered = &note;
    if (marker_x - last_drawn < 1.0f) continue;  // one marker per pixel column
    last_drawn = marker_x;
    ++drawn;
    draw_list->AddTriangleFilled(ImVec2(marker_x - kMarkerHalfWidth, y),
                                 ImVec2(marker_x + kMarkerHalfWidth, y), ImVec2(marker_x, y + kMarkerHeight),
                                 theme::kNoteMarker);
  }
  if (hovered != nullptr) draw_note_tooltip(*hovered, *pointer);
  return drawn;
}

}  // namespace snapscope
