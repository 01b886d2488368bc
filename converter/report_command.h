// `snapscope-convert --report`: what holds memory at one moment (the moment table) and per
// annotated phase, as text, from a snapshot pickle or a converted directory. No display needed.
#pragma once

#include <cstdio>
#include <span>
#include <string_view>

namespace snapscope {

extern const char* const kReportUsage;

// `args` are the arguments after "--report": [--at peak|EVENT] [--device N] [--top N] IN.pickle|DIR.
// Prints the report to `out`; errors are one line on `err`. Returns the process exit code.
int run_report(std::span<const std::string_view> args, std::FILE* out, std::FILE* err);

}  // namespace snapscope
