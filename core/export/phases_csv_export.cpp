// phases-csv: the phase table (annotated intervals with live bytes at start, end and peak).
#include "core/analysis/phase_table.h"
#include "core/analysis/text_table.h"
#include "core/export/export_common.h"

namespace snapscope {

namespace {

std::string optional_cell(int64_t value, int64_t none) { return value == none ? "" : std::to_string(value); }

}  // namespace

void write_phases_csv(const ExportInput& input, const std::string& path) {
  const PhaseTable table =
      build_phase_table(*input.blocks, pair_annotations(input.annotations, input.device));
  BufferedFile out(path);
  out << "name,depth,start_time_us,end_time_us,start_event,end_event,start_bytes,end_bytes,delta_bytes,"
         "peak_bytes,peak_event\n";
  for (const PhaseRow& row : table.rows) {
    out << std::string_view(csv_field(row.name)) << ',' << uint64_t{row.depth} << ','
        << std::string_view(optional_cell(row.start_time_us, kNoTime)) << ','
        << std::string_view(optional_cell(row.end_time_us, kNoTime)) << ','
        << std::string_view(optional_cell(row.start_event, -1)) << ','
        << std::string_view(optional_cell(row.end_event, -1)) << ',' << row.start_bytes << ','
        << row.end_bytes << ',' << row.delta_bytes() << ',' << row.peak_bytes << ','
        << std::string_view(optional_cell(row.peak_event, -1)) << '\n';
  }
  out.close();
}

}  // namespace snapscope
