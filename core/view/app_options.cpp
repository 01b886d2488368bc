#include "core/view/app_options.h"

#include <stdexcept>

#include "core/export/export.h"
#include "core/snapshot/model.h"

namespace snapscope {

const char* app_usage() {
  return "usage: snapscope [PATH [PATH_B]] [options]\n"
         "  PATH                 a snapshot .pickle / .pickle.gz (converted once, cached) or a converted\n"
         "                       directory\n"
         "  PATH_B               a second snapshot to compare with PATH: its curve over PATH's chart and\n"
         "                       a Compare tab diffing the two at the cursor\n"
         "  --screenshot FILE    render one frame to FILE (PNG) and exit\n"
         "  --export-png FILE    the same, only the chart with its axes (with --view, --size)\n"
         "  --view X0:X1[,Y0:Y1] initial view: timesteps, or eE0:eE1 event numbers as the axis shows\n"
         "                       them, and bytes (K/M/G suffixes allowed)\n"
         "  --size WxH           window size (default 1600x900); with --export-png the PNG's size, chart\n"
         "                       and axes, as --export svg's --size (default 1600x600)\n"
         "  --device N           device to show first ('host': pinned host memory)\n"
         "  --segments           start on the Active Cached Segment Timeline\n"
         "  --private-pools      include private pools' inactive memory (memory_viz's \"Allocated\n"
         "                       Memory (incl. Private Pools)\"), once the device's pools are read\n"
         "  --no-cursor          open without the time cursor (default: at the peak, every panel filled)\n"
         "  --script FILE        run the commands in FILE (see core/view/script.h) and exit\n"
         "  --bench              zoom from the whole trace to single events and back; print frame "
         "statistics\n"
         "  -h, --help           this text\n"
         "keys: click empty chart space = place the time cursor; Left/Right = step it one event\n"
         "  (Shift: 1% of the trace) while the chart has focus, else pan; Home/End/P = start/end/peak;\n"
         "  WASD = pan; F = fit; Ctrl+F = search; F3/Shift+F3 = next/previous match; / then n/N =\n"
         "  search the call tree; Ctrl+P / Ctrl+J = print selection / cursor as JSON;\n"
         "  Ctrl+Shift+E = File > Export\n";
}

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

}  // namespace

AppOptions parse_app_options(std::span<const std::string_view> arguments) {
  AppOptions options;
  bool size_given = false;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const std::string_view argument = arguments[i];
    auto value = [&]() -> std::string_view {
      if (i + 1 >= arguments.size()) throw std::invalid_argument(std::string(argument) + " needs a value");
      return arguments[++i];
    };
    if (argument == "-h" || argument == "--help") {
      options.help = true;
    } else if (argument == "--screenshot") {
      options.screenshot = std::string(value());
    } else if (argument == "--export-png") {
      options.export_png = std::string(value());
    } else if (argument == "--script") {
      options.script = std::string(value());
    } else if (argument == "--view") {
      options.view = parse_view_spec(value());
    } else if (argument == "--size") {
      options.size = parse_window_size(value());
      size_given = true;
    } else if (argument == "--device") {
      const std::string text(value());
      const std::optional<int> device = parse_device(text);
      if (!device) throw std::invalid_argument("bad device '" + text + "'");
      options.device = *device;
    } else if (argument == "--segments") {
      options.segments = true;
    } else if (argument == "--private-pools") {
      options.private_pools = true;
    } else if (argument == "--no-cursor") {
      options.cursor_at_peak = false;
    } else if (argument == "--bench") {
      options.bench = true;
    } else if (argument.starts_with("-") && argument.size() > 1) {
      throw std::invalid_argument("unknown option " + std::string(argument));
    } else if (options.path.empty()) {
      options.path = std::string(argument);
    } else if (options.compare_path.empty()) {
      options.compare_path = std::string(argument);
    } else {
      throw std::invalid_argument("more than two input paths given");
    }
  }
  size_window_for_export(options, size_given);
  return options;
}

}  // namespace snapscope
