#include "app/panels/database_wait.h"

#include <imgui.h>

#include "core/session/session.h"

namespace snapscope {

void draw_database_wait(const Session& session) {
  if (!session.database_writing()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("writing elements.db (%.1f s); this fills in when it lands",
                     session.document()->pending_database->seconds_waited());
  ImGui::PopStyleColor();
}

}  // namespace snapscope
