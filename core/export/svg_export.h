// The timeline chart as SVG for papers and reports: the shapes the viewer draws for a view (the
// level-of-detail builder's instances, so a view of millions of allocations stays a few thousand
// shapes), as vector rectangles and memory_viz's ramps as polygons. Colours come from the caller
// (core/util/chart_palette.h holds the viewer's), so core stays free of rendering code.
#pragma once

#include "core/export/export.h"

namespace snapscope {

// The view a request describes for `timeline`, with the viewer's defaults.
ChartView svg_view(const Timeline& timeline, const SvgRequest& request);

}  // namespace snapscope
