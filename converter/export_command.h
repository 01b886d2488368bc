// `snapscope-convert --export FORMAT IN -o FILE`: one export (core/export) of a snapshot pickle
// or a converted directory, written atomically. No display needed.
#pragma once

#include <cstdio>
#include <span>
#include <string>
#include <string_view>

#include "core/util/arg_parser.h"

namespace snapscope {

// The --export command line (its table bound to options never read: for help and its tests).
ArgTable export_arg_table();
std::string export_usage();

// `args` are the arguments after "--export". Errors are one line on `err`. Returns the exit code
// (0 success, 1 bad input or unwritable output, 2 usage error).
int run_export(std::span<const std::string_view> args, std::FILE* out, std::FILE* err);

}  // namespace snapscope
