// The inspector: everything known about the selected allocation, its call stack, and actions
// (copy to clipboard, zoom to allocation).
#pragma once

#include "app/app_state.h"

namespace snapscope {

void draw_inspector(AppState& state);

}  // namespace snapscope
