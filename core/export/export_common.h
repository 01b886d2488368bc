// Pieces the export writers share: the buffered output file (core/util) and the element sets
// exports cover.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/live_elements.h"
#include "core/export/export.h"
#include "core/util/buffered_file.h"

namespace snapscope {

// Elements whose traced allocation event lies in `range`, in element order, each with its
// allocation stack (the set speedscope-allocated and a ranged allocations-csv cover).
std::vector<LiveElement> allocated_in_range(const Timeline& timeline, EventRange range);

// time_us of an action, or kNoTime when the trace has none.
int64_t action_time(const Timeline& timeline, size_t action);

// The input's file name without directories, for titles.
std::string display_name(const ExportInput& input);

// The request's categories, or the blocks timeline classified with the built-in rules.
std::shared_ptr<const Classification> categories_for(const ExportInput& input, const ExportRequest& request);

}  // namespace snapscope
