#include "app/database_wait.h"

#include <imgui.h>

#include "core/session/session.h"

namespace snapscope {

void draw_database_wait(const Session& state) {
  if (!state.database_writing()) return;
  ImGui::TextDisabled(
      "writing elements.db (%.1f s): stacks, details, events, SQL and the allocator state follow",
      state.document()->pending_database->seconds_waited());
}

}  // namespace snapscope
