// The inspector: everything known about the selected allocation, its call stack, and actions
// (copy to clipboard, zoom to allocation).
#pragma once

#include "core/session/session.h"

namespace snapscope {

void draw_inspector(Session& session);

}  // namespace snapscope
