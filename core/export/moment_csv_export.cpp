// moment-csv: the moment table (live bytes by allocating location) with exact byte counts.
#include "core/analysis/moment_table.h"
#include "core/export/export_common.h"

namespace snapscope {

void write_moment_csv(const ExportInput& input, size_t state, LocationRule rule, const std::string& path) {
  LocationIndex locations(*input.stacks, rule);
  const MomentTable table = build_moment_table(live_elements(*input.blocks, state), locations, state);
  BufferedFile out(path);
  out << std::string_view(moment_table_csv(table));
  out.close();
}

}  // namespace snapscope
