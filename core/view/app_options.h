// The snapscope command line.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/util/arg_parser.h"
#include "core/view/script.h"

namespace snapscope {

struct AppOptions {
  std::string path;          // .pickle, .pickle.gz or converted directory; empty: start with no file
  std::string compare_path;  // a second snapshot: run B, compared with `path` (run A)
  std::optional<std::string> screenshot;  // render once, write this PNG, exit
  std::optional<std::string> export_png;  // the same, the chart and its axes only
  std::optional<std::string> script;      // run these commands, exit
  std::optional<ViewSpec> view;
  WindowSize size{1600, 900};  // the window; with --export-png, a first guess for image_size
  // --export-png: the PNG's size, chart and axes (--size, as for --export svg, whose default it
  // shares); the window is resized until the chart fills exactly this.
  std::optional<WindowSize> image_size;
  int device = -1;  // -1: the first device with data
  bool segments = false;
  bool private_pools = false;
  bool cursor_at_peak = true;  // --no-cursor: open without a time cursor
  bool bench = false;
  bool help = false;

  // Headless modes never wait for user input and exit when done.
  bool headless() const {
    return screenshot.has_value() || export_png.has_value() || script.has_value() || bench;
  }
};

// argv without the program name. Throws UsageError (a std::invalid_argument) for unknown or
// malformed options.
AppOptions parse_app_options(std::span<const std::string_view> arguments);

// What the viewer's and snapscope-term's command lines share: their messages and --device.
namespace viewer_args {
std::string unknown_option(std::string_view arg);       // "unknown option ARG"
std::string more_than_two_paths(std::string_view arg);  // a third path
int parse_device_option(std::string_view text);         // a device number or 'host'
}  // namespace viewer_args

// The command line's table (bound to options never read: for help and its tests) and its help.
ArgTable app_arg_table();
const std::string& app_usage();

}  // namespace snapscope
