// Pieces the export writers share: the buffered output file (core/util) and the element sets
// exports cover.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/live_elements.h"
#include "core/analysis/module_instances.h"
#include "core/analysis/stack_source.h"
#include "core/export/export.h"
#include "core/util/buffered_file.h"

namespace snapscope {

// Elements whose traced allocation event lies in `range`, in element order, each with its
// allocation stack (the set speedscope-allocated and a ranged allocations-csv cover).
std::vector<LiveElement> allocated_in_range(const Timeline& timeline, EventRange range);

// time_us of an action, or kNoTime when the trace has none.
int64_t action_time(const Timeline& timeline, size_t action);

// A frame's source file and line as exports write them: torch names a native frame's unknown file
// "??" (line 0), which is no file, so both are empty then.
std::string_view known_file(const FrameRef& frame);
std::optional<int64_t> known_line(const FrameRef& frame);

// The input's file name without directories, for titles.
std::string display_name(const ExportInput& input);

// Every allocation of the blocks timeline placed in its module calls, with the input's forward stacks.
ModuleInstances export_module_instances(const ExportInput& input);

// The request's categories, or the blocks timeline classified with the built-in rules.
std::shared_ptr<const Classification> categories_for(const ExportInput& input, const ExportRequest& request);

}  // namespace snapscope
