// Headless modes: --screenshot (headless_screenshot.cpp), --script (headless_script.cpp) and
// --bench (headless_bench.cpp). They drive Application::render_frame exactly as the interactive
// loop does, then exit with a status.
#pragma once

#include <string>

#include "app/application.h"

namespace snapscope {

// The whole window (--screenshot).
int run_screenshot(Application& app, const std::string& path);
// The chart and its axes, `image_size` pixels (--export-png): the window is resized until the
// chart fills exactly that; an image size the layout cannot reach is an error, and no file.
int run_export_png(Application& app, const std::string& path, WindowSize image_size);
int run_script(Application& app, const std::string& script_path);
int run_bench(Application& app);

// Shared by the modes: waits for the document, else prints why there is none (false).
bool load_or_report(Application& app);
// Draws a settled frame and writes the whole window, or with chart_only the chart and its axes
// (File > Export png), as PNG. Throws std::runtime_error when the file cannot be written.
void capture_screenshot(Application& app, const std::string& path, bool chart_only);

}  // namespace snapscope
