// --screenshot and --export-png, and what every headless mode shares: waiting for the document
// and capturing a settled frame.
#include <cstdio>
#include <exception>
#include <optional>
#include <string>

#include "app/headless/headless_runner.h"
#include "render/framebuffer_png.h"

namespace snapscope {

bool load_or_report(Application& app) {
  if (app.wait_for_load()) return true;
  // A job's rank directory fails in its rank table (a malformed summary names its file there).
  std::string error = app.state().error();
  if (error.empty() && app.rank_table().active()) error = app.rank_table().error();
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

namespace {

int write_or_report(Application& app, const std::string& path, bool chart_only) {
  try {
    capture_screenshot(app, path, chart_only);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "snapscope: %s\n", error.what());
    return 1;
  }
  return 0;
}

// Resizes the window until write_chart_png's rectangle is `image`. The panes keep their sizes
// across a resize, so the first correction usually lands it; a few more absorb their clamping.
bool fit_chart_to(Application& app, WindowSize image) {
  constexpr int kSmallestWindow = 64, kLargestWindow = 16384;
  std::optional<PixelRect> before;
  for (int attempt = 0; attempt < 6; ++attempt) {
    app.render_settled();  // as capture_screenshot does: settled panels can change the layout (phase lanes)
    app.render_frame();    // ImGui lays windows out from the previous frame
    const PixelRect chart = app.chart_png_rect();
    const int wide = image.width - chart.width, tall = image.height - chart.height;
    if (wide == 0 && tall == 0) return true;
    // A resize that changed nothing: the panes' minimum sizes hold the chart where it is.
    if (before && before->width == chart.width && before->height == chart.height) return false;
    before = chart;
    const WindowSize window = app.window().size();
    const WindowSize wanted{window.width + wide, window.height + tall};
    const auto fits = [](int pixels) { return pixels >= kSmallestWindow && pixels <= kLargestWindow; };
    if (!fits(wanted.width) || !fits(wanted.height) || !app.window().resize(wanted)) return false;
  }
  return false;
}

}  // namespace

int run_screenshot(Application& app, const std::string& path) {
  app.timeline().set_os_pointer(false);  // the pointer rests wherever the display put it
  if (!load_or_report(app)) return 1;
  return write_or_report(app, path, false);
}

int run_export_png(Application& app, const std::string& path, WindowSize image_size) {
  app.timeline().set_os_pointer(false);
  if (!load_or_report(app)) return 1;
  if (!fit_chart_to(app, image_size)) {
    const PixelRect chart = app.chart_png_rect();
    std::fprintf(
        stderr,
        "snapscope: --size %dx%d: the chart and its axes cannot be laid out at that size (got %dx%d)\n",
        image_size.width, image_size.height, chart.width, chart.height);
    return 1;
  }
  return write_or_report(app, path, true);
}

}  // namespace snapscope
