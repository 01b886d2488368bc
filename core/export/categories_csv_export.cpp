// categories-csv: the moment's live memory by category, as the Categories tab and the report's
// --by category: bytes, cumulative bytes, median size and count per category, largest first.
#include "core/analysis/live_elements.h"
#include "core/export/export_common.h"

namespace snapscope {

void write_categories_csv(const ExportInput& input, const ExportRequest& request, const std::string& path) {
  const std::shared_ptr<const Classification> categories = categories_for(input, request);
  const MomentTable table =
      category_moment_table(live_elements(*input.blocks, request.state), *categories, request.state);
  BufferedFile out(path);
  out << std::string_view(moment_table_csv(table, "category"));
  out.close();
}

}  // namespace snapscope
