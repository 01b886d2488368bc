// --screenshot and --export-png, and what every headless mode shares: waiting for the document
// and capturing a settled frame.
#include <cstdio>
#include <exception>
#include <string>

#include "app/headless_runner.h"
#include "render/framebuffer_png.h"

namespace snapscope {

bool load_or_report(Application& app) {
  if (app.wait_for_load()) return true;
  // A job's rank directory fails in its rank table (a malformed summary names its file there).
  std::string error = app.state().error();
  if (error.empty() && app.rank_view().active()) error = app.rank_view().error();
  std::fprintf(stderr, "snapscope: %s\n", error.empty() ? "no snapshot given" : error.c_str());
  return false;
}

// The whole window, or with chart_only the chart and its axes (File > Export png).
void capture_screenshot(Application& app, const std::string& path, bool chart_only) {
  app.render_frame();
  app.present();
  app.render_settled();         // also a second frame: ImGui lays windows out from the previous one
  app.window().force_redraw();  // the back buffer must hold this frame, even if unchanged
  app.render_frame();
  if (chart_only) {
    app.write_chart_png(path);
  } else {
    write_framebuffer_png(path, app.window().framebuffer_width(), app.window().framebuffer_height());
  }
  app.present();
}

int run_screenshot(Application& app, const std::string& path, bool chart_only) {
  app.timeline().set_os_pointer(false);  // the pointer rests wherever the display put it
  if (!load_or_report(app)) return 1;
  try {
    capture_screenshot(app, path, chart_only);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "snapscope: %s\n", error.what());
    return 1;
  }
  return 0;
}

}  // namespace snapscope
