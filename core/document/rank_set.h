// The ranks of one job: which files in a directory are ranks, and one rank's summary
// (core/compare/rank_table.h), computed from its snapshot or read from the X.rank.json a
// conversion wrote beside itself (--rank-summary), so a table of hundreds of ranks reads only
// kilobytes per rank. The converter's --ranks and the viewer's rank table share it.
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "core/compare/rank_table.h"

namespace snapscope {

// Loads the rank (pickle or converted directory) and summarises `device` (-1: its first).
RankSummary summarise_rank(const std::string& path, int device);
// Writes OUTDIR.rank.json beside `output_dir` (through a temporary file, renamed into place).
std::string write_rank_summary_file(const std::string& output_dir, const RankSummary& summary);
// What a converted directory's summary is tied to: a hash of the end of its layout file and its
// size ("" when it has none). A summary whose stamp differs from its directory's is stale.
std::string directory_stamp(const std::string& directory);
// Reads one X.rank.json; its `file` becomes the path beside it. Throws InputError naming the file.
RankSummary read_rank_summary_file(const std::string& path);
bool is_rank_summary_file(const std::string& path);  // by name: *.rank.json

// A directory that is not itself a converted snapshot lists its ranks: its X.rank.json summaries
// when it has any, else every pickle, JSON snapshot and converted directory in it (not
// *.memviz.json), sorted by name. Other paths are ranks themselves. Throws InputError for a
// directory without any.
std::vector<std::string> expand_rank_inputs(const std::vector<std::string>& given);
// True for a directory that holds ranks rather than being one converted snapshot.
bool is_rank_directory(const std::string& path);
// Every rank summarised (or its summary read), in parallel, one rank per core; `cancel` (may be
// null) stops between ranks. A summary beside a directory it no longer matches (reconverted, or
// another device asked for) is rebuilt from the directory; without one, another device is refused.
RankTable load_rank_table(const std::vector<std::string>& ranks, int device, double outlier_percent,
                          const std::atomic<bool>* cancel = nullptr);

}  // namespace snapscope
