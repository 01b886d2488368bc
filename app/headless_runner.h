// Headless modes: --screenshot, --script and --bench. They drive Application::render_frame
// exactly as the interactive loop does, then exit with a status.
#pragma once

#include "app/application.h"

namespace snapscope {

// chart_only: the chart and its axes (--export-png), else the whole window (--screenshot).
int run_screenshot(Application& app, const std::string& path, bool chart_only);
int run_script(Application& app, const std::string& script_path);
int run_bench(Application& app);

}  // namespace snapscope
