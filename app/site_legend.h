// Legend of "color by allocation site": the biggest sites with their colors.
#pragma once

#include "app/app_state.h"

namespace snapscope {

float site_legend_height();
void draw_site_legend(AppState& state, float width);

}  // namespace snapscope
