#include "core/analysis/moment_table.h"

#include <algorithm>
#include <unordered_map>

#include "core/analysis/text_table.h"
#include "core/util/format.h"

namespace snapscope {
namespace {

uint64_t median_of(std::vector<uint64_t>& sizes) {
  const size_t n = sizes.size();
  std::nth_element(sizes.begin(), sizes.begin() + n / 2, sizes.end());
  const uint64_t upper = sizes[n / 2];
  if (n % 2 == 1) return upper;
  const uint64_t lower = *std::max_element(sizes.begin(), sizes.begin() + n / 2);
  return lower + (upper - lower) / 2;
}

std::vector<std::string> text_cells(const MomentRow& row) {
  return {format_bytes(double(row.bytes)), format_bytes(double(row.cumulative)),
          format_bytes(double(row.median_size)), format_grouped(row.count), row.label};
}

}  // namespace

MomentTable build_moment_table(std::span<const LiveElement> live, LocationIndex& locations, size_t state) {
  MomentTable table = build_grouped_table(
      live, [&](const LiveElement& element) { return locations.location_of(element.stack); },
      [&](uint32_t location) { return std::string(locations.label(location)); }, state);
  for (MomentRow& row : table.rows) {
    row.compiled = locations.compiled(row.location);
    row.compiled_frame = locations.compiled_frame(row.location);
  }
  return table;
}

MomentTable build_grouped_table(std::span<const LiveElement> live,
                                const std::function<uint32_t(const LiveElement&)>& group_of,
                                const std::function<std::string(uint32_t)>& label_of, size_t state) {
  std::unordered_map<uint32_t, std::vector<uint64_t>> sizes_by_group;
  MomentTable table;
  table.state = state;
  for (const LiveElement& element : live) {
    sizes_by_group[group_of(element)].push_back(element.size);
    table.live_bytes += element.size;
  }
  for (auto& [group, sizes] : sizes_by_group) {
    MomentRow row;
    row.location = group;
    row.label = label_of(group);
    row.count = sizes.size();
    for (uint64_t size : sizes) row.bytes += size;
    row.median_size = median_of(sizes);
    table.rows.push_back(std::move(row));
  }
  std::sort(table.rows.begin(), table.rows.end(), [](const MomentRow& a, const MomentRow& b) {
    return a.bytes != b.bytes ? a.bytes > b.bytes : a.label < b.label;
  });
  uint64_t running = 0;
  for (MomentRow& row : table.rows) row.cumulative = running += row.bytes;
  return table;
}

std::string moment_table_text(const MomentTable& table, size_t top_n, const GroupNames& group) {
  TextTable text({"Mem", "Cumulative", "Median", "Count", group.title});
  const size_t shown = top_n == 0 ? table.rows.size() : std::min(top_n, table.rows.size());
  for (size_t i = 0; i < shown; ++i) text.add_row(text_cells(table.rows[i]));
  if (shown < table.rows.size()) {
    MomentRow rest;
    for (size_t i = shown; i < table.rows.size(); ++i) {
      rest.bytes += table.rows[i].bytes;
      rest.count += table.rows[i].count;
    }
    rest.cumulative = table.live_bytes;
    rest.label = "(" + std::to_string(table.rows.size() - shown) + " more " + group.plural + ")";
    std::vector<std::string> cells = text_cells(rest);
    cells[2] = "-";  // a median of medians would mislead
    text.add_row(std::move(cells));
  }
  return text.render();
}

std::string moment_table_csv(const MomentTable& table, std::string_view label_column) {
  std::string csv = "bytes,cumulative_bytes,median_size,count," + std::string(label_column) + "\n";
  for (const MomentRow& row : table.rows) {
    csv += std::to_string(row.bytes) + ',' + std::to_string(row.cumulative) + ',' +
           std::to_string(row.median_size) + ',' + std::to_string(row.count) + ',' + csv_field(row.label) +
           '\n';
  }
  return csv;
}

}  // namespace snapscope
