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

const char* const kExportUsage =
    "usage: snapscope-convert --export FORMAT IN.pickle[.gz]|DIR -o FILE [--at peak|EVENT] [--device N]\n"
    "                         [--range FIRST:LAST] [--location user|shown] [--view X0:X1[,Y0:Y1]]\n"
    "                         [--size WxH] [--segments] [--time-axis] [--private-pools]\n"
    "                         [--align-to PROFILER.json | --merge-into PROFILER.json]\n"
    "  FORMAT      speedscope, speedscope-allocated, moment-csv, tree-csv, allocations-csv, phases-csv,\n"
    "              categories-csv, modules-csv, timeline-json, chrome-trace, svg (schemas: docs/FORMAT.md)\n"
    "  -o FILE     the file to write (replaced if it exists; nothing is written on failure)\n"
    "  --at        the moment of speedscope, moment-csv, tree-csv, allocations-csv, categories-csv and\n"
    "              modules-csv: the block timeline's peak (default) or the state right after raw trace\n"
    "              event EVENT\n"
    "  --device    device index (default: the first device with a trace or segments)\n"
    "  --range     speedscope-allocated, allocations-csv and modules-csv: allocations made in raw events\n"
    "              FIRST..LAST (inclusive) instead of the whole trace / the live set at --at\n"
    "  --location  moment-csv and allocations-csv rows: innermost user Python frame (user, default)\n"
    "              or the innermost frame memory_viz shows (shown)\n"
    "  --view X0:X1[,Y0:Y1]  svg: timesteps, or eE0:eE1 events #E0..#E1 (and bytes, K/M/G suffixes)\n"
    "              drawn; without bytes y fits the totals in view; default: the whole trace up to\n"
    "              its peak + 5%, as the viewer's fit\n"
    "  --size WxH  svg: the chart's size in pixels, which sets the level of detail (default 1600x600)\n"
    "  --segments  svg: the Active Cached Segment Timeline instead of the Active Memory Timeline\n"
    "  --time-axis svg: x linear in wall-clock time, as the viewer's View > Wall-clock time axis\n"
    "              (--view still takes timesteps); the trace must have timestamps\n"
    "  --private-pools  svg: memory_viz's \"Allocated Memory (incl. Private Pools)\": each private\n"
    "              pool as one block of the most it held, its inactive memory gray (class p)\n"
    "  --align-to PROFILER.json  chrome-trace: timestamps in that torch.profiler (Kineto) trace's\n"
    "              frame (after its baseTimeNanoseconds) and a pid it does not use, to load beside it\n"
    "  --merge-into PROFILER.json  chrome-trace: the same, written as one file holding the\n"
    "              profiler's events and ours (Perfetto opens both in one timeline)\n";

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
    throw subcommand::UsageError("--range needs FIRST:LAST, got '" + std::string(text) + "'");
  EventRange range{subcommand::parse_non_negative(text.substr(0, colon), "--range"),
                   subcommand::parse_non_negative(text.substr(colon + 1), "--range")};
  if (range.last < range.first)
    throw subcommand::UsageError("--range: LAST is before FIRST in '" + std::string(text) + "'");
  return range;
}

ExportFormat parse_format(std::string_view name) {
  if (const auto format = parse_export_format(name)) return *format;
  throw subcommand::UsageError("unknown export format '" + std::string(name) + "'");
}

// --view and --size take the viewer's syntax (core/view/script.h).
ViewSpec parse_view(std::string_view text) {
  try {
    return parse_view_spec(text);
  } catch (const std::invalid_argument& error) {
    throw subcommand::UsageError(std::string("--view: ") + error.what());
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
    throw subcommand::UsageError(std::string("--size: ") + error.what());
  }
}

ExportOptions parse_export_args(std::span<const std::string_view> args) {
  if (args.empty()) throw subcommand::UsageError("--export needs a FORMAT");
  ExportOptions options;
  options.request.format = parse_format(args[0]);
  options.request.svg_style = chart_svg_style();
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    const bool takes_value = arg == "-o" || arg == "--output" || arg == "--at" || arg == "--device" ||
                             arg == "--range" || arg == "--location" || arg == "--view" || arg == "--size" ||
                             arg == "--align-to" || arg == "--merge-into";
    if (takes_value && i + 1 == args.size())
      throw subcommand::UsageError(std::string(arg) + " needs a value");
    if (arg == "-o" || arg == "--output") {
      options.output = args[++i];
    } else if (arg == "--at") {
      const std::string_view value = args[++i];
      options.at_event =
          value == "peak" ? std::nullopt : std::optional(subcommand::parse_non_negative(value, arg));
    } else if (arg == "--device") {
      options.device = subcommand::parse_device_option(args[++i], arg);
    } else if (arg == "--range") {
      options.request.range = parse_range(args[++i]);
    } else if (arg == "--location") {
      options.request.location = subcommand::parse_location_rule(args[++i]);
    } else if (arg == "--view") {
      options.view = parse_view(args[++i]);
    } else if (arg == "--size") {
      set_size(options.request.svg, args[++i]);
    } else if (arg == "--segments") {
      options.request.svg.kind = TimelineKind::Segments;
    } else if (arg == "--time-axis") {
      options.request.svg.time_axis = true;
    } else if (arg == "--align-to" || arg == "--merge-into") {
      if (!options.align_to.empty())
        throw subcommand::UsageError("--align-to and --merge-into name one profiler trace, once");
      options.align_to = args[++i];
      options.merge = arg == "--merge-into";
    } else if (arg == "--private-pools") {
      options.private_pools = true;
    } else if ((arg.starts_with("-") && arg != "-") || !options.input.empty()) {
      throw subcommand::UsageError("unexpected argument '" + std::string(arg) + "'");
    } else {
      options.input = arg;
    }
  }
  if (options.input.empty()) throw subcommand::UsageError("no input given");
  if (options.output.empty()) throw subcommand::UsageError("missing -o FILE");
  if (!options.align_to.empty() && options.request.format != ExportFormat::ChromeTrace)
    throw subcommand::UsageError("--align-to and --merge-into line up a chrome-trace export");
  return options;
}

bool needs_segments(ExportFormat format) {
  return format == ExportFormat::TimelineJson || format == ExportFormat::ChromeTrace ||
         format == ExportFormat::Svg;
}

}  // namespace

int run_export(std::span<const std::string_view> args, std::FILE* out, std::FILE* err) {
  const auto run_parsed = [](ExportOptions& options) {
    check_output_path(options.output);  // a missing directory fails before the load
    SourceOptions source_options;
    source_options.device = options.device;
    source_options.with_segments = needs_segments(options.request.format);
    const AnalysisSource source = load_analysis_source(options.input, source_options);
    options.request.state = resolve_moment(source, options.at_event);
    if (options.private_pools) {
      if (options.request.format != ExportFormat::Svg || options.request.svg.kind != TimelineKind::Blocks) {
        throw subcommand::UsageError("--private-pools draws the svg chart of the Active Memory Timeline");
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
  return subcommand::run(args, out, err, kExportUsage, parse_export_args, run_parsed,
                         [](const ExportOptions& options) { return options.input; });
}

}  // namespace snapscope
