#include "core/view/app_options.h"

#include <optional>
#include <string>

#include "core/export/export.h"
#include "core/snapshot/model.h"

namespace snapscope {

namespace {

// What the window adds around the chart and its axes at the default layout (measured: a 1600x900
// window exports a 1584x327 chart): the first guess of the window for an --export-png size.
constexpr WindowSize kAroundExportedChart{16, 573};

void size_window_for_export(AppOptions& options, bool size_given) {
  if (!options.export_png) return;
  const SvgRequest svg_default;
  options.image_size = size_given ? options.size : WindowSize{svg_default.width, svg_default.height};
  options.size = {options.image_size->width + kAroundExportedChart.width,
                  options.image_size->height + kAroundExportedChart.height};
}

// `size_given`: --size was given (with --export-png it is the image's size).
ArgTable app_table(AppOptions& o, bool& size_given) {
  return {
      .synopsis = "usage: snapscope [PATH [PATH_B]] [options]\n",
      .positionals =
          {{"PATH", "a snapshot .pickle / .pickle.gz (converted once, cached) or a converted directory", 0, 1,
            [&o](std::string_view path) { o.path = path; }, ""},
           {"PATH_B",
            "a second snapshot to compare with PATH: its curve over PATH's chart and a Compare tab "
            "diffing the two at the cursor",
            0, 1, [&o](std::string_view path) { o.compare_path = path; }, ""}},
      .options =
          {{{"--screenshot"},
            "FILE",
            "render one frame to FILE (PNG) and exit",
            [&o](std::string_view path) { o.screenshot = std::string(path); }},
           {{"--export-png"},
            "FILE",
            "the same, only the chart with its axes (with --view, --size)",
            [&o](std::string_view path) { o.export_png = std::string(path); }},
           {{"--view"},
            "X0:X1[,Y0:Y1]",
            "initial view: timesteps, or eE0:eE1 event numbers as the axis shows them, and bytes (K/M/G "
            "suffixes allowed)",
            [&o](std::string_view text) { o.view = parse_view_spec(text); }},
           {{"--size"},
            "WxH",
            "window size (default 1600x900); with --export-png the PNG's size, chart and axes, as --export "
            "svg's --size (default 1600x600)",
            [&o, &size_given](std::string_view text) {
              o.size = parse_window_size(text);
              size_given = true;
            }},
           {{"--device"},
            "N",
            "device to show first ('host': pinned host memory)",
            [&o](std::string_view text) { o.device = viewer_args::parse_device_option(text); }},
           flag_option("--segments", "start on the Active Cached Segment Timeline", o.segments),
           flag_option(
               "--private-pools",
               "include private pools' inactive memory (memory_viz's \"Allocated Memory (incl. Private "
               "Pools)\"), once the device's pools are read",
               o.private_pools),
           {{"--no-cursor"},
            "",
            "open without the time cursor (default: at the peak, every panel filled)",
            [&o](std::string_view) { o.cursor_at_peak = false; }},
           {{"--script"},
            "FILE",
            "run the commands in FILE (see core/view/script.h) and exit",
            [&o](std::string_view path) { o.script = std::string(path); }},
           flag_option("--bench",
                       "zoom from the whole trace to single events and back; print frame statistics",
                       o.bench)},
      .epilogue =
          "keys: click empty chart space = place the time cursor; Left/Right = step it one event\n"
          "  (Shift: 1% of the trace) while the chart has focus, else pan; Home/End/P = start/end/peak;\n"
          "  WASD = pan; F = fit; Ctrl+F = search; F3/Shift+F3 = next/previous match; / then n/N =\n"
          "  search the call tree; Ctrl+P / Ctrl+J = print selection / cursor as JSON;\n"
          "  Ctrl+Shift+E = File > Export\n",
      .unknown_option = viewer_args::unknown_option,
      .extra_positional = viewer_args::more_than_two_paths,
  };
}

}  // namespace

namespace viewer_args {

std::string unknown_option(std::string_view arg) { return "unknown option " + std::string(arg); }

std::string more_than_two_paths(std::string_view) { return "more than two input paths given"; }

int parse_device_option(std::string_view text) {
  const std::optional<int> device = parse_device(text);
  if (!device) throw UsageError("bad device '" + std::string(text) + "'");
  return *device;
}

}  // namespace viewer_args

ArgTable app_arg_table() {
  static AppOptions unused;  // the table is read, never parsed into
  static bool unused_size_given = false;
  return app_table(unused, unused_size_given);
}

const std::string& app_usage() {
  static const std::string usage = help_text(app_arg_table());
  return usage;
}

AppOptions parse_app_options(std::span<const std::string_view> arguments) {
  AppOptions options;
  bool size_given = false;
  options.help = parse_args(app_table(options, size_given), arguments) == ArgsResult::HelpAsked;
  size_window_for_export(options, size_given);
  return options;
}

}  // namespace snapscope
