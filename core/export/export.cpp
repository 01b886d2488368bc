// The export format table and the one entry every export goes through.
#include "core/export/export.h"

#include <array>

#include "core/export/export_source.h"
#include "core/util/output_file.h"

namespace snapscope {

namespace {

struct FormatInfo {
  ExportFormat format;
  std::string_view name;
  std::string_view extension;
};

constexpr std::array kFormats = {
    FormatInfo{ExportFormat::Speedscope, "speedscope", ".speedscope.json"},
    FormatInfo{ExportFormat::SpeedscopeAllocated, "speedscope-allocated", ".speedscope.json"},
    FormatInfo{ExportFormat::MomentCsv, "moment-csv", ".csv"},
    FormatInfo{ExportFormat::TreeCsv, "tree-csv", ".csv"},
    FormatInfo{ExportFormat::AllocationsCsv, "allocations-csv", ".csv"},
    FormatInfo{ExportFormat::PhasesCsv, "phases-csv", ".csv"},
    FormatInfo{ExportFormat::CategoriesCsv, "categories-csv", ".csv"},
    FormatInfo{ExportFormat::ModulesCsv, "modules-csv", ".csv"},
    FormatInfo{ExportFormat::TimelineJson, "timeline-json", ".json"},
    FormatInfo{ExportFormat::ChromeTrace, "chrome-trace", ".trace.json"},
    FormatInfo{ExportFormat::Svg, "svg", ".svg"},
};

const FormatInfo& info(ExportFormat format) {
  for (const FormatInfo& entry : kFormats) {
    if (entry.format == format) return entry;
  }
  return kFormats.front();  // unreachable: every enumerator has an entry
}

constexpr std::array kFormatOrder = [] {
  std::array<ExportFormat, kFormats.size()> order{};
  for (size_t i = 0; i < kFormats.size(); ++i) order[i] = kFormats[i].format;
  return order;
}();

void write_export(const ExportInput& input, const ExportRequest& request, const std::string& path) {
  const EventRange whole_trace;
  switch (request.format) {
    case ExportFormat::Speedscope:
      return write_speedscope_live(input, request.state, path);
    case ExportFormat::SpeedscopeAllocated:
      return write_speedscope_allocated(input, request.range.value_or(whole_trace), path);
    case ExportFormat::MomentCsv:
      return write_moment_csv(input, request.state, request.location, path);
    case ExportFormat::TreeCsv:
      return write_tree_csv(input, request.state, path);
    case ExportFormat::AllocationsCsv:
      return write_allocations_csv(input, request, path);
    case ExportFormat::PhasesCsv:
      return write_phases_csv(input, path);
    case ExportFormat::CategoriesCsv:
      return write_categories_csv(input, request, path);
    case ExportFormat::ModulesCsv:
      return write_modules_csv(input, request, path);
    case ExportFormat::TimelineJson:
      return write_timeline_json(input, path);
    case ExportFormat::ChromeTrace:
      return write_chrome_trace(input, request, path);
    case ExportFormat::Svg:
      return write_svg(input, request.svg, request.svg_style, path);
  }
}

}  // namespace

std::span<const ExportFormat> export_formats() { return kFormatOrder; }

std::string_view export_format_name(ExportFormat format) { return info(format).name; }

std::string_view export_format_extension(ExportFormat format) { return info(format).extension; }

std::optional<ExportFormat> parse_export_format(std::string_view name) {
  for (const FormatInfo& entry : kFormats) {
    if (entry.name == name) return entry.format;
  }
  return std::nullopt;
}

ExportInput export_input(const AnalysisSource& source) {
  ExportInput input;
  input.file = source.file;
  input.device = source.device;
  input.blocks = source.blocks.get();
  input.segments = source.segments.get();
  input.reserved = &source.reserved;
  input.stacks = source.stacks.get();
  input.annotations = source.annotations;
  input.forward_frames = &source.forward_frames;
  return input;
}

void export_to_file(const ExportInput& input, const ExportRequest& request, const std::string& path) {
  check_output_path(path);             // before the work: a missing directory fails at once
  write_export(input, request, path);  // each writer's BufferedFile is an OutputFile
}

}  // namespace snapscope
