// libFuzzer harness: a rank summary file (OUTDIR.rank.json, untrusted: it travels from a cluster
// job) -> parse_rank_summary -> a rank table of it. Only InputError is an acceptable failure; a
// parsed summary's `file` is a bare name (never absolute, never "..", no '/').
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "core/compare/rank_table.h"
#include "core/snapshot/snapshot_reader.h"
#include "fuzz_fixture.h"

using namespace snapscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  RankSummary summary;
  try {
    summary = parse_rank_summary(fuzz::as_text(data, size), "fuzz.rank.json");
  } catch (const InputError&) {
    return 0;
  }
  if (summary.file.empty() || summary.file == ".." || summary.file.find('/') != std::string::npos)
    std::abort();
  std::vector<RankSummary> ranks{summary, summary};
  ranks[1].peak_bytes /= 2;
  const RankTable table = build_rank_table(std::move(ranks), 10);
  if (table.rows.size() != 2) std::abort();
  (void)rank_summary_json(summary).dump();
  return 0;
}
