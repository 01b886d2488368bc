#include "converter/export_command.h"

#include "converter/subcommand.h"

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "core/analysis/state_mapping.h"
#include "core/export/chart_svg_style.h"
#include "core/export/export.h"
#include "core/export/export_source.h"
#include "core/export/profiler_trace.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/timeline/memory_pyramid.h"
#include "core/util/output_file.h"
#include "core/view/script.h"
#include "core/view/view_transform.h"
#include "core/view/y_fit.h"

namespace snapscope {

namespace {

struct ExportOptions {
  ExportRequest request;
  std::optional<int64_t> at_event;  // empty: at the peak
  int device = -1;
  std::string input;
  std::string output;
  bool private_pools = false;    // svg: memory_viz's "Allocated Memory (incl. Private Pools)"
  std::optional<ViewSpec> view;  // svg --view, resolved against the timeline once it is loaded
  std::string align_to;          // chrome-trace --align-to / --merge-into: the profiler trace
  bool merge = false;
};

EventRange parse_range(std::string_view text) {
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos)
    throw UsageError("--range needs FIRST:LAST, got '" + std::string(text) + "'");
  EventRange range{parse_non_negative(text.substr(0, colon), "--range"),
                   parse_non_negative(text.substr(colon + 1), "--range")};
  if (range.last < range.first)
    throw UsageError("--range: LAST is before FIRST in '" + std::string(text) + "'");
  return range;
}

ExportFormat parse_format(std::string_view name) {
  if (const auto format = parse_export_format(name)) return *format;
  throw UsageError("unknown export format '" + std::string(name) + "'");
}

// --view and --size take the viewer's syntax (core/view/script.h).
ViewSpec parse_view(std::string_view text) {
  try {
    return parse_view_spec(text);
  } catch (const std::invalid_argument& error) {
    throw UsageError(std::string("--view: ") + error.what());
  }
}

// --view as the viewer reads it: eE0:eE1 are events (as the axis labels them), X0:X1 timesteps; a
// view that starts past the trace's end is an error, and without a y range y fits the totals in
// view (the viewer's Y fit), unless the chart is the private-pools view, whose totals differ.
void resolve_view(SvgRequest& svg, const ViewSpec& spec, const AnalysisSource& source) {
  const Timeline& timeline = svg.kind == TimelineKind::Segments ? *source.segments : *source.blocks;
  DataRect rect{spec.x0, spec.x1, 0, 1};
  if (spec.events) {
    const int64_t last_event =
        timeline.action_count() ? timeline.action_event(timeline.action_count() - 1) : -1;
    if (spec.x0 > static_cast<double>(last_event)) {
      throw InputError(source.file + ": --view starts at event #" +
                       std::to_string(static_cast<int64_t>(spec.x0)) + ", after the timeline's last event #" +
                       std::to_string(last_event));
    }
    const auto [first, last] =
        event_steps(timeline, static_cast<int64_t>(spec.x0), static_cast<int64_t>(spec.x1));
    rect.x0 = static_cast<double>(first);
    rect.x1 = static_cast<double>(std::max(last, first + 1));
  } else if (spec.x0 >= static_cast<double>(timeline.timesteps())) {
    throw InputError(source.file + ": --view starts at step " +
                     std::to_string(static_cast<int64_t>(spec.x0)) + ", past the timeline's end (" +
                     std::to_string(timeline.timesteps()) + " steps)");
  }
  svg.x0 = rect.x0;
  svg.x1 = rect.x1;
  if (spec.y0 && spec.y1) {
    svg.y0 = spec.y0;
    svg.y1 = spec.y1;
  } else if (!svg.pools) {
    const DataRect fitted = fit_y(rect, timeline, MemoryPyramid(timeline), false);
    svg.y0 = fitted.y0;
    svg.y1 = fitted.y1;
  }
}

void set_size(SvgRequest& svg, std::string_view text) {
  try {
    const WindowSize size = parse_window_size(text);
    svg.width = size.width;
    svg.height = size.height;
  } catch (const std::invalid_argument& error) {
    throw UsageError(std::string("--size: ") + error.what());
  }
}

void set_profiler_trace(ExportOptions& options, std::string_view path, bool merge) {
  if (!options.align_to.empty())
    throw UsageError("--align-to and --merge-into name one profiler trace, once");
  options.align_to = path;
  options.merge = merge;
}

void check_export(const ExportOptions& options) {
  if (options.output.empty()) throw UsageError("missing -o FILE");
  if (!options.align_to.empty() && options.request.format != ExportFormat::ChromeTrace)
    throw UsageError("--align-to and --merge-into line up a chrome-trace export");
}

constexpr std::string_view kExportSynopsis =
    "usage: snapscope-convert --export FORMAT IN.pickle[.gz]|DIR -o FILE [--at peak|EVENT] [--device N]\n"
    "                         [--range FIRST:LAST] [--location user|shown] [--view X0:X1[,Y0:Y1]]\n"
    "                         [--size WxH] [--segments] [--time-axis] [--private-pools]\n"
    "                         [--align-to PROFILER.json | --merge-into PROFILER.json]\n";

ArgTable export_table(ExportOptions& o) {
  SvgRequest& svg = o.request.svg;
  return {
      .synopsis = kExportSynopsis,
      .positionals =
          {{"FORMAT",
            "speedscope, speedscope-allocated, moment-csv, tree-csv, allocations-csv, phases-csv, "
            "categories-csv, modules-csv, timeline-json, chrome-trace, svg (schemas: docs/FORMAT.md)",
            1, 1, [&o](std::string_view name) { o.request.format = parse_format(name); },
            "--export needs a FORMAT"},
           {"IN.pickle[.gz]|DIR", "", 1, 1, [&o](std::string_view path) { o.input = path; },
            "no input given"}},
      .options =
          {text_option({"-o", "--output"}, "FILE",
                       "the file to write (replaced if it exists; nothing is written on failure)", o.output),
           subcommand::at_event_option(
               o.at_event,
               "the moment of speedscope, moment-csv, tree-csv, allocations-csv, categories-csv and "
               "modules-csv: the block timeline's peak (default) or the state right after raw trace event "
               "EVENT"),
           subcommand::device_option(o.device,
                                     "device index (default: the first device with a trace or segments)"),
           {{"--range"},
            "FIRST:LAST",
            "speedscope-allocated, allocations-csv and modules-csv: allocations made in raw events "
            "FIRST..LAST (inclusive) instead of the whole trace / the live set at --at",
            [&o](std::string_view value) { o.request.range = parse_range(value); }},
           subcommand::location_option(
               o.request.location,
               "moment-csv and allocations-csv rows: innermost user Python frame (user, default) or the "
               "innermost frame memory_viz shows (shown)"),
           {{"--view"},
            "X0:X1[,Y0:Y1]",
            "svg: timesteps, or eE0:eE1 events #E0..#E1 (and bytes, K/M/G suffixes) drawn; without bytes y "
            "fits the totals in view; default: the whole trace up to its peak + 5%, as the viewer's fit",
            [&o](std::string_view value) { o.view = parse_view(value); }},
           {{"--size"},
            "WxH",
            "svg: the chart's size in pixels, which sets the level of detail (default 1600x600)",
            [&svg](std::string_view value) { set_size(svg, value); }},
           {{"--segments"},
            "",
            "svg: the Active Cached Segment Timeline instead of the Active Memory Timeline",
            [&svg](std::string_view) { svg.kind = TimelineKind::Segments; }},
           flag_option(
               "--time-axis",
               "svg: x linear in wall-clock time, as the viewer's View > Wall-clock time axis (--view still "
               "takes timesteps); the trace must have timestamps",
               svg.time_axis),
           flag_option(
               "--private-pools",
               "svg: memory_viz's \"Allocated Memory (incl. Private Pools)\": each private pool as one block "
               "of the most it held, its inactive memory gray (class p)",
               o.private_pools),
           {{"--align-to"},
            "PROFILER.json",
            "chrome-trace: timestamps in that torch.profiler (Kineto) trace's frame (after its "
            "baseTimeNanoseconds) and a pid it does not use, to load beside it",
            [&o](std::string_view path) { set_profiler_trace(o, path, false); }},
           {{"--merge-into"},
            "PROFILER.json",
            "chrome-trace: the same, written as one file holding the profiler's events and ours (Perfetto "
            "opens both in one timeline)",
            [&o](std::string_view path) { set_profiler_trace(o, path, true); }}},
  };
}

bool needs_segments(ExportFormat format) {
  return format == ExportFormat::TimelineJson || format == ExportFormat::ChromeTrace ||
         format == ExportFormat::Svg;
}

}  // namespace

ArgTable export_arg_table() {
  static ExportOptions unused;  // the table is read, never parsed into
  return export_table(unused);
}

std::string export_usage() { return help_text(export_arg_table()); }

int run_export(std::span<const std::string_view> args, std::FILE* out, std::FILE* err) {
  const auto run_parsed = [](ExportOptions& options) {
    options.request.svg_style = chart_svg_style();
    check_output_path(options.output);  // a missing directory fails before the load
    SourceOptions source_options;
    source_options.device = options.device;
    source_options.with_segments = needs_segments(options.request.format);
    const AnalysisSource source = load_analysis_source(options.input, source_options);
    options.request.state = resolve_moment(source, options.at_event);
    if (options.private_pools) {
      if (options.request.format != ExportFormat::Svg || options.request.svg.kind != TimelineKind::Blocks) {
        throw UsageError("--private-pools draws the svg chart of the Active Memory Timeline");
      }
      options.request.svg.pools = private_pools_of(source);
      if (!options.request.svg.pools) {
        throw InputError(source.file + ": device " + std::to_string(source.device) +
                         " has no private memory pool");
      }
    }
    if (options.view) resolve_view(options.request.svg, *options.view, source);
    if (!options.align_to.empty()) {
      options.request.profiler =
          std::make_shared<const ProfilerTrace>(read_profiler_trace(options.align_to, options.merge));
      options.request.merge_into_profiler = options.merge;
    }
    export_to_file(export_input(source), options.request, options.output);
    return 0;
  };
  const auto parse = [](std::span<const std::string_view> parsed) {
    return subcommand::parse_table(parsed, export_table, check_export);
  };
  return subcommand::run(args, out, err, export_usage(), parse, run_parsed,
                         [](const ExportOptions& options) { return options.input; });
}

}  // namespace snapscope
