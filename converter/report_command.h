// `snapscope-convert --report`: what holds memory at one moment (the moment table) and per
// annotated phase, as text, from a snapshot pickle or a converted directory. No display needed.
#pragma once

#include <cstdio>
#include <span>
#include <string>
#include <string_view>

#include "core/util/arg_parser.h"

namespace snapscope {

// The --report command line (its table bound to options never read: for help and its tests).
ArgTable report_arg_table();
std::string report_usage();

// `args` are the arguments after "--report": [--at peak|EVENT] [--device N] [--top N] IN.pickle|DIR.
// Prints the report to `out`; errors are one line on `err`. Returns the process exit code.
int run_report(std::span<const std::string_view> args, std::FILE* out, std::FILE* err);

}  // namespace snapscope
