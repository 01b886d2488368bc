// How the chart colours allocations: each its own colour (memory_viz), by allocation site, or by
// category (core/classify: parameter, gradient, optimizer state, ...).
#pragma once

#include <cstdint>

namespace snapscope {

enum class ChartColoring : uint8_t { Allocation, Site, Category };

}  // namespace snapscope
