// "What is this memory": the kind of memory an allocation holds. Seven built-in categories, then
// any a user's rules file adds (category_rules.h). Ids index CategoryNames and the chart palette.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/chart_palette.h"

namespace snapscope {

using CategoryId = uint8_t;

enum class Category : CategoryId {
  Parameter,
  Gradient,
  OptimizerState,
  Activation,  // made in a forward, freed in the backward
  Temporary,   // allocated and freed inside one phase
  Workspace,   // "autograd / workspace": cuBLAS/cuDNN workspaces, communication buffers
  Unknown,
};
inline constexpr size_t kBuiltinCategories = 7;
// At most this many categories in all, so every one gets its own chart colour.
inline constexpr size_t kMaxCategories = kMaxPaletteColors;

constexpr CategoryId category_id(Category category) { return static_cast<CategoryId>(category); }
std::string_view builtin_category_name(Category category);

// The categories of one classification: the built-ins, then custom ones in rule-file order.
class CategoryNames {
 public:
  CategoryNames();
  size_t size() const { return names_.size(); }
  std::string_view name(CategoryId id) const { return names_[id]; }
  // The id of `name` (a built-in or an already added custom one); adds a custom one otherwise.
  // Throws std::invalid_argument past kMaxCategories.
  CategoryId intern(std::string_view name);
  // -1 when unknown.
  int find(std::string_view name) const;
  const std::vector<std::string>& names() const { return names_; }

 private:
  std::vector<std::string> names_;
};

// The chart and legend colour of each category: fixed, meaningful hues for the built-ins (so a
// screenshot reads the same on every snapshot), then distinct palette colours for custom ones.
std::vector<Rgba> category_palette(const CategoryNames& names);

}  // namespace snapscope
