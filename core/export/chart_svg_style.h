// The viewer's chart colours (chart_palette.h) as core/export's SVG style, so an exported SVG
// looks like the chart on screen. Header-only: the converter uses it without linking GL.
#pragma once

#include <cmath>

#include "core/export/export.h"
#include "core/util/chart_palette.h"

namespace snapscope {

inline SvgColor to_svg_color(const Rgba& color) {
  const auto channel = [](float v) {
    return static_cast<uint8_t>(std::lround(std::fmin(1.0f, std::fmax(0.0f, v)) * 255));
  };
  return {channel(color.r), channel(color.g), channel(color.b)};
}

inline SvgStyle chart_svg_style() {
  SvgStyle style;
  for (const Rgba& color : kDefaultPalette) style.palette.push_back(to_svg_color(color));
  style.background = to_svg_color(kDefaultBackground);
  style.pool_inactive = to_svg_color(kPoolInactiveColor);
  return style;
}

}  // namespace snapscope
