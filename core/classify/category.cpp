#include "core/classify/category.h"

#include <array>
#include <stdexcept>

namespace snapscope {
namespace {

constexpr std::array<std::string_view, kBuiltinCategories> kBuiltinNames = {
    "parameter", "gradient", "optimizer state", "activation", "temporary", "autograd / workspace", "unknown",
};

// Parameters blue, gradients orange, optimizer state green, activations purple, temporaries
// yellow, workspaces brown, unknown grey: far apart, and none close to the outline colours.
constexpr std::array<Rgba, kBuiltinCategories> kBuiltinColors = {{
    {0.12f, 0.47f, 0.71f, 1},
    {1.00f, 0.50f, 0.05f, 1},
    {0.17f, 0.63f, 0.17f, 1},
    {0.58f, 0.40f, 0.74f, 1},
    {0.86f, 0.80f, 0.35f, 1},
    {0.55f, 0.34f, 0.29f, 1},
    {0.50f, 0.50f, 0.50f, 1},
}};

}  // namespace

std::string_view builtin_category_name(Category category) {
  return kBuiltinNames[static_cast<size_t>(category)];
}

CategoryNames::CategoryNames() : names_(kBuiltinNames.begin(), kBuiltinNames.end()) {}

int CategoryNames::find(std::string_view name) const {
  for (size_t i = 0; i < names_.size(); ++i) {
    if (names_[i] == name) return static_cast<int>(i);
  }
  return -1;
}

CategoryId CategoryNames::intern(std::string_view name) {
  if (const int found = find(name); found >= 0) return static_cast<CategoryId>(found);
  if (names_.size() >= kMaxCategories) {
    throw std::invalid_argument("more than " + std::to_string(kMaxCategories - kBuiltinCategories) +
                                " custom categories");
  }
  names_.emplace_back(name);
  return static_cast<CategoryId>(names_.size() - 1);
}

std::vector<Rgba> category_palette(const CategoryNames& names) {
  std::vector<Rgba> colors(kBuiltinColors.begin(), kBuiltinColors.end());
  // Custom categories: palette colours not used by a built-in (the palette's pinks, cyans...).
  static constexpr std::array<size_t, 9> kCustomPaletteEntries = {0, 1, 3, 4, 6, 9, 13, 14, 15};
  for (size_t i = kBuiltinCategories; i < names.size(); ++i) {
    const size_t custom = i - kBuiltinCategories;
    colors.push_back(kDefaultPalette[kCustomPaletteEntries[custom % kCustomPaletteEntries.size()]]);
  }
  return colors;
}

}  // namespace snapscope
