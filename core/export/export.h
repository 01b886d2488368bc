// Exports of one device's memory to files other tools open: speedscope profiles, CSV tables,
// a timeline JSON, a Chrome/Perfetto trace. Schemas: docs/FORMAT.md "Exports". Every export is
// built from the same analysis code as the viewer's panels (live elements, call tree, moment
// and phase tables), so its totals agree with what the viewer shows.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/annotation_pairing.h"
#include "core/analysis/module_instances.h"
#include "core/analysis/source_location.h"
#include "core/classify/classifier.h"
#include "core/lod/chart_view.h"
#include "core/timeline/private_pool_layout.h"
#include "core/timeline/reserved_series.h"
#include "core/timeline/timeline.h"

namespace snapscope {

struct AnalysisSource;
struct ProfilerTrace;

enum class ExportFormat : uint8_t {
  Speedscope,           // live memory at the moment, weights = bytes
  SpeedscopeAllocated,  // bytes allocated over the trace or a range of events
  MomentCsv,
  TreeCsv,
  AllocationsCsv,
  PhasesCsv,
  CategoriesCsv,  // the moment's live memory by category (core/classify)
  ModulesCsv,     // the moment's live memory by nn.Module call (core/analysis/module_tree.h)
  TimelineJson,
  ChromeTrace,
  Svg,  // the chart of one view as vector shapes
};

// Every format, in the order help texts list them.
std::span<const ExportFormat> export_formats();
std::string_view export_format_name(ExportFormat format);       // the CLI's FORMAT word
std::string_view export_format_extension(ExportFormat format);  // ".speedscope.json", ".csv", ...
std::optional<ExportFormat> parse_export_format(std::string_view name);

// Raw trace events [first, last], both inclusive.
struct EventRange {
  int64_t first = 0;
  int64_t last = INT64_MAX;
  bool contains(int64_t event) const { return event >= first && event <= last; }
};

// What an export reads: one device's timelines, stacks and annotations, owned elsewhere (an
// AnalysisSource, or the viewer's document).
struct ExportInput {
  std::string file;  // shown in profile names and error messages
  int device = 0;
  const Timeline* blocks = nullptr;          // required
  const Timeline* segments = nullptr;        // required by timeline-json and chrome-trace
  const ReservedSeries* reserved = nullptr;  // required by timeline-json and chrome-trace
  const StackSource* stacks = nullptr;       // required
  std::span<const AnnotationRecord> annotations;
  // Backward allocations' forward stacks by event (modules-csv); null or empty: none recorded.
  const ForwardFramesByEvent* forward_frames = nullptr;
};
ExportInput export_input(const AnalysisSource& source);

using SvgColor = std::array<uint8_t, 3>;  // sRGB

struct SvgStyle {
  std::vector<SvgColor> palette;  // indexed by colour key modulo its size; at least one colour
  SvgColor aggregate{107, 107, 117};
  SvgColor pool_inactive{107, 107, 112};  // a private pool's inactive memory (class "p")
  SvgColor background{26, 26, 28};
};

// The chart an svg export draws.
struct SvgRequest {
  TimelineKind kind = TimelineKind::Blocks;
  std::optional<double> x0, x1, y0, y1;  // data window; unset: the viewer's fit (whole trace, peak + 5%)
  int width = 1600, height = 600;        // pixels
  bool time_axis = false;                // x linear in wall-clock time (x0/x1 stay timesteps), if timed
  // The blocks timeline's private pools view (private_pools_of in export_source.h); null: the
  // timeline itself.
  std::shared_ptr<const PrivatePoolLayout> pools;
};

struct ExportRequest {
  ExportFormat format = ExportFormat::Speedscope;
  size_t state = 0;                 // the moment (Timeline state) of moment-based exports
  std::optional<EventRange> range;  // speedscope-allocated, allocations-csv, modules-csv: allocated in range
  LocationRule location = LocationRule::FirstUserFrame;
  SvgRequest svg;
  SvgStyle svg_style;  // an empty palette draws every allocation in the aggregate colour
  // categories-csv, allocations-csv: the blocks timeline's categories (e.g. the viewer's, with its
  // rules); null: classified here with the built-in rules.
  std::shared_ptr<const Classification> categories;
  // chrome-trace: the torch.profiler trace to line up with (its time frame, a pid of our own);
  // with merge_into_profiler its events are written into the same file. Null: time_us as is.
  std::shared_ptr<const ProfilerTrace> profiler;
  bool merge_into_profiler = false;
};

// Writes the export to `path` through OutputFile (core/util/output_file.h): a unique temporary
// beside a regular file, renamed when complete, so a failed export leaves no partial file; a
// character device or FIFO (and "-", standard output) is written straight through. Throws InputError
// ("<file>: <reason>") when the input cannot give this export (e.g. a Chrome trace without timestamps) and
// std::runtime_error ("<path>: <reason>") when the file cannot be written.
void export_to_file(const ExportInput& input, const ExportRequest& request, const std::string& path);

// The individual writers, for export_to_file and the tests. Each writes `path` through OutputFile.
void write_speedscope_live(const ExportInput& input, size_t state, const std::string& path);
void write_speedscope_allocated(const ExportInput& input, EventRange range, const std::string& path);
void write_moment_csv(const ExportInput& input, size_t state, LocationRule rule, const std::string& path);
void write_tree_csv(const ExportInput& input, size_t state, const std::string& path);
void write_allocations_csv(const ExportInput& input, const ExportRequest& request, const std::string& path);
void write_phases_csv(const ExportInput& input, const std::string& path);
void write_categories_csv(const ExportInput& input, const ExportRequest& request, const std::string& path);
void write_modules_csv(const ExportInput& input, const ExportRequest& request, const std::string& path);
void write_timeline_json(const ExportInput& input, const std::string& path);
void write_chrome_trace(const ExportInput& input, const ExportRequest& request, const std::string& path);
// Throws InputError for an empty view or a timeline that is not loaded.
void write_svg(const ExportInput& input, const SvgRequest& request, const SvgStyle& style,
               const std::string& path);

}  // namespace snapscope
