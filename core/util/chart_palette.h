// Colours of the chart: a categorical palette indexed by colour key (mod its size), and the
// outline colours of selection, hover and highlights, chosen far from every palette colour (and
// drawn over a black halo) so they stay visible on any allocation. Plain data so panels and
// legends can use the same colours.
#pragma once

#include <array>
#include <cstdint>

namespace snapscope {

struct Rgba {
  float r = 0, g = 0, b = 0, a = 1;
};

inline constexpr size_t kMaxPaletteColors = 32;

// 16 hues ordered so that keys one and two apart (stack neighbours) differ strongly: squared RGB
// distance >= 0.16 between consecutive keys and >= 0.30 two apart (wrapping), checked by a test.
inline constexpr std::array<Rgba, 16> kDefaultPalette = {{
    {0.09f, 0.75f, 0.81f, 1},
    {1.00f, 0.60f, 0.59f, 1},
    {0.58f, 0.40f, 0.74f, 1},
    {0.62f, 0.85f, 0.90f, 1},
    {0.74f, 0.74f, 0.13f, 1},
    {1.00f, 0.73f, 0.47f, 1},
    {0.77f, 0.69f, 0.84f, 1},
    {0.17f, 0.63f, 0.17f, 1},
    {1.00f, 0.50f, 0.05f, 1},
    {0.89f, 0.47f, 0.76f, 1},
    {0.68f, 0.78f, 0.91f, 1},
    {0.12f, 0.47f, 0.71f, 1},
    {0.55f, 0.34f, 0.29f, 1},
    {0.60f, 0.87f, 0.54f, 1},
    {0.97f, 0.71f, 0.82f, 1},
    {0.84f, 0.15f, 0.16f, 1},
}};
inline constexpr Rgba kDefaultBackground = {0.10f, 0.10f, 0.11f, 1};
// A private pool's inactive memory (memory_viz draws a pool's envelope gray): a key outside every
// palette, coloured by the renderer itself.
inline constexpr uint32_t kPoolInactiveKey = 0xFFFFFFFDu;
inline constexpr Rgba kPoolInactiveColor = {0.42f, 0.42f, 0.44f, 1};

inline constexpr Rgba kSelectionOutline = {1.00f, 1.00f, 1.00f, 1};  // white
inline constexpr Rgba kHoverOutline = {1.00f, 1.00f, 0.00f, 1};      // pure yellow
inline constexpr Rgba kSearchOutline = {0.00f, 1.00f, 0.25f, 1};     // spring green
inline constexpr Rgba kGroupOutline = {1.00f, 0.00f, 1.00f, 1};      // pure magenta
// Squared RGB distance; outlines keep at least kOutlineMinDistance2 from every palette colour.
inline constexpr float rgb_distance2(Rgba a, Rgba b) {
  return (a.r - b.r) * (a.r - b.r) + (a.g - b.g) * (a.g - b.g) + (a.b - b.b) * (a.b - b.b);
}
inline constexpr float kOutlineMinDistance2 = 0.09f;  // 0.3 in RGB units

}  // namespace snapscope
