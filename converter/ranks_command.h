// `snapscope-convert --ranks DIR|FILE...`: the per-rank snapshots of one job in one table (peak,
// when, phase at the peak, reserved, top location, deviation from the median rank), as text or
// JSON, without a display. Ranks are read in parallel, one per core, each freed once summarised.
#pragma once

#include <cstdio>
#include <span>
#include <string>
#include <string_view>

#include "core/util/arg_parser.h"

namespace snapscope {

// The --ranks command line (its table bound to options never read: for help and its tests).
ArgTable ranks_arg_table();
std::string ranks_usage();

// `args` are the arguments after "--ranks". Prints to `out`; errors are one line on `err`.
int run_ranks(std::span<const std::string_view> args, std::FILE* out, std::FILE* err);

}  // namespace snapscope
