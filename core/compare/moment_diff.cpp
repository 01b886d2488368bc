#include "core/compare/moment_diff.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <unordered_map>

#include "core/analysis/text_table.h"
#include "core/util/format.h"

namespace snapscope {

const char* diff_status_name(DiffStatus status) {
  switch (status) {
    case DiffStatus::New:
      return "new";
    case DiffStatus::Vanished:
      return "vanished";
    case DiffStatus::Both:
      break;
  }
  return "";
}

MomentDiff diff_moments(const MomentTable& a, const MomentTable& b) {
  MomentDiff diff;
  diff.live_a = a.live_bytes;
  diff.live_b = b.live_bytes;
  std::unordered_map<std::string, size_t> row_of;  // location label -> index in diff.rows
  for (const MomentRow& row : a.rows) {
    row_of.emplace(row.label, diff.rows.size());
    diff.rows.push_back({row.label, row.bytes, 0, row.count, 0, DiffStatus::Vanished});
  }
  for (const MomentRow& row : b.rows) {
    const auto [found, inserted] = row_of.emplace(row.label, diff.rows.size());
    if (inserted) {
      diff.rows.push_back({row.label, 0, row.bytes, 0, row.count, DiffStatus::New});
      continue;
    }
    DiffRow& joined = diff.rows[found->second];
    joined.bytes_b = row.bytes;
    joined.count_b = row.count;
    joined.status = DiffStatus::Both;
  }
  std::sort(diff.rows.begin(), diff.rows.end(), [](const DiffRow& x, const DiffRow& y) {
    const uint64_t dx = static_cast<uint64_t>(std::llabs(x.delta())),
                   dy = static_cast<uint64_t>(std::llabs(y.delta()));
    if (dx != dy) return dx > dy;
    const uint64_t size_x = std::max(x.bytes_a, x.bytes_b), size_y = std::max(y.bytes_a, y.bytes_b);
    return size_x != size_y ? size_x > size_y : x.location < y.location;
  });
  return diff;
}

double growth_percent(uint64_t a, uint64_t b) {
  if (a == 0) return b == 0 ? 0.0 : 100.0;
  return 100.0 * (static_cast<double>(b) - static_cast<double>(a)) / static_cast<double>(a);
}

namespace {

std::string diff_line(int64_t delta, uint64_t a, uint64_t b, uint64_t count_a, uint64_t count_b,
                      const std::string& location, const char* status) {
  char line[160];
  std::snprintf(line, sizeof line, "%12s %11s %11s %9llu %9llu  ", format_signed_bytes(delta).c_str(),
                format_bytes(static_cast<double>(a)).c_str(), format_bytes(static_cast<double>(b)).c_str(),
                static_cast<unsigned long long>(count_a), static_cast<unsigned long long>(count_b));
  std::string text = line + location;
  if (*status != '\0') text += std::string("  [") + status + "]";
  return text + "\n";
}

}  // namespace

std::string moment_diff_text(const MomentDiff& diff, size_t top_n, const GroupNames& group) {
  std::string text = "       Delta           A           B   Count A   Count B  " + group.title + "\n";
  const size_t shown = top_n == 0 ? diff.rows.size() : std::min(top_n, diff.rows.size());
  for (size_t i = 0; i < shown; ++i) {
    const DiffRow& row = diff.rows[i];
    text += diff_line(row.delta(), row.bytes_a, row.bytes_b, row.count_a, row.count_b, row.location,
                      diff_status_name(row.status));
  }
  if (shown < diff.rows.size()) {
    uint64_t a = 0, b = 0, count_a = 0, count_b = 0;
    for (size_t i = shown; i < diff.rows.size(); ++i) {
      a += diff.rows[i].bytes_a;
      b += diff.rows[i].bytes_b;
      count_a += diff.rows[i].count_a;
      count_b += diff.rows[i].count_b;
    }
    const std::string folded = "(" + format_grouped(diff.rows.size() - shown) + " more " + group.plural + ")";
    text += diff_line(static_cast<int64_t>(b) - static_cast<int64_t>(a), a, b, count_a, count_b, folded, "");
  }
  uint64_t count_a = 0, count_b = 0;
  for (const DiffRow& row : diff.rows) {
    count_a += row.count_a;
    count_b += row.count_b;
  }
  text += diff_line(diff.delta(), diff.live_a, diff.live_b, count_a, count_b, "total live", "");
  return text;
}

std::string moment_diff_csv_rows(const MomentDiff& diff, std::string_view grouping) {
  std::string csv;
  for (const DiffRow& row : diff.rows) {
    csv += std::string(grouping) + ',' + csv_field(row.location) + ',' + std::to_string(row.bytes_a) + ',' +
           std::to_string(row.bytes_b) + ',' + std::to_string(row.delta()) + ',' +
           std::to_string(row.count_a) + ',' + std::to_string(row.count_b) + ',' +
           (row.status == DiffStatus::Both ? "both" : diff_status_name(row.status)) + '\n';
  }
  return csv;
}

}  // namespace snapscope
