// Legend of "color by allocation site": the biggest sites with their colors.
#pragma once

#include "core/session/session.h"

namespace snapscope {

float site_legend_height();
void draw_site_legend(Session& session, float width);

}  // namespace snapscope
