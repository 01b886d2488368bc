// One rank's summary (core/compare/rank_table.h): computed from a snapshot for --ranks, or
// written beside a conversion (--rank-summary) so a rank table reads only kilobytes per rank.
#pragma once

#include <string>

#include "core/compare/rank_table.h"

namespace snapscope {

// Loads the rank (pickle or converted directory) and summarises `device` (-1: its first).
RankSummary summarise_rank(const std::string& path, int device);
// Writes OUTDIR.rank.json beside `output_dir` (through a temporary file, renamed into place).
std::string write_rank_summary_file(const std::string& output_dir, const RankSummary& summary);
// Reads one X.rank.json. Throws InputError naming the file.
RankSummary read_rank_summary_file(const std::string& path);
bool is_rank_summary_file(const std::string& path);  // by name: *.rank.json

}  // namespace snapscope
