// `snapscope-convert --ranks DIR|FILE...`: the per-rank snapshots of one job in one table (peak,
// when, phase at the peak, reserved, top location, deviation from the median rank), as text or
// JSON, without a display. Ranks are read in parallel, one per core, each freed once summarised.
#pragma once

#include <cstdio>
#include <span>
#include <string_view>

namespace snapscope {

extern const char* const kRanksUsage;

// `args` are the arguments after "--ranks". Prints to `out`; errors are one line on `err`.
int run_ranks(std::span<const std::string_view> args, std::FILE* out, std::FILE* err);

}  // namespace snapscope
