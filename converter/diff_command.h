// `snapscope-convert --diff A B`: what grew between two snapshots (a run before and after a
// change): peak A vs B, and bytes per location at one moment of each (the peaks by default), as
// text or JSON, with an optional CI gate on peak growth.
#pragma once

#include <cstdio>
#include <span>
#include <string>
#include <string_view>

#include "core/util/arg_parser.h"

namespace snapscope {

// The --diff command line (its table bound to options never read: for help and its tests).
ArgTable diff_arg_table();
std::string diff_usage();

// Exit code when --fail-if-peak-grows is exceeded (0 ok, 1 bad input, 2 usage).
inline constexpr int kExitPeakGrew = 3;

// `args` are the arguments after "--diff". Prints to `out`; errors are one line on `err`.
int run_diff(std::span<const std::string_view> args, std::FILE* out, std::FILE* err);

}  // namespace snapscope
