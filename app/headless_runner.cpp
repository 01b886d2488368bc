#include "app/headless_runner.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>
#include "app/screenshot.h"

#include "core/view/script.h"

namespace snapscope {
namespace {

using Clock = std::chrono::steady_clock;

double elapsed_ms(Clock::time_point since) {
  return std::chrono::duration<double, std::milli>(Clock::now() - since).count();
}

bool load_or_report(Application& app) {
  if (app.wait_for_load()) return true;
  std::fprintf(stderr, "snapscope: %s\n",
               app.state().error().empty() ? "no snapshot given" : app.state().error().c_str());
  return false;
}

void screenshot(Application& app, const std::string& path) {
  app.render_frame();  // a second frame: ImGui lays windows out from the previous one
  write_framebuffer_png(path, app.window().framebuffer_width(), app.window().framebuffer_height());
  app.present();
}

// Runs one script command; the visitor keeps each command's effect in one place.
struct CommandRunner {
  Application& app;
  void operator()(const script::View& command) { app.apply_view(command.spec); }
  void operator()(const script::Fit&) { app.state().view.fit(); }
  void operator()(const script::Device& command) { app.state().select_device(command.device); }
  void operator()(const script::ShowSegments& command) {
    app.state().select_kind(command.segments ? TimelineKind::Segments : TimelineKind::Blocks);
  }
  void operator()(const script::ColorBySite& command) {
    app.state().settings.color_by_site = command.enabled;
    app.apply_color_mode();
  }
  void operator()(const script::TimeAxis& command) { app.state().settings.time_axis = command.time; }
  void operator()(const script::Click& command) {
    app.render_frame();  // the chart must show the current view before it is picked
    app.timeline().click_at(app.state(), command.x, command.y);
  }
  void operator()(const script::Select& command) {
    const auto elem = app.state().find_by_address(command.address);
    if (!elem) throw std::runtime_error("no allocation at address " + std::to_string(command.address));
    app.state().select(elem);
  }
  void operator()(const script::Wait& command) {
    const auto start = Clock::now();
    do {
      app.render_frame();
      app.present();
    } while (elapsed_ms(start) < command.milliseconds);
  }
  void operator()(const script::Screenshot& command) { screenshot(app, command.path); }
  void operator()(const script::PrintSelection&) { app.print_selection_json(); }
  void operator()(const script::PrintView&) {
    const TimelinePanel& panel = app.timeline();
    const ViewTransform& view = app.state().view;
    const DataRect& visible = view.visible();
    const nlohmann::json line = {
        {"chart",
         {{"x", panel.chart_x()},
          {"y", panel.chart_y()},
          {"width", view.viewport_width()},
          {"height", view.viewport_height()}}},
        {"view", {{"x0", visible.x0}, {"x1", visible.x1}, {"y0", visible.y0}, {"y1", visible.y1}}},
        {"device", app.state().settings.device},
        {"instances", panel.layer().instance_count()}};
    std::printf("%s\n", line.dump().c_str());
    std::fflush(stdout);
  }
  void operator()(const script::Cursor& command) {
    const Timeline* timeline = app.state().timeline();
    if (timeline == nullptr) throw std::runtime_error("cursor: no timeline");
    TimeCursor& cursor = app.state().cursor;
    using Move = script::Cursor::Move;
    switch (command.move) {
      case Move::Peak:
        cursor.peak(*timeline);
        break;
      case Move::Home:
        cursor.home(*timeline);
        break;
      case Move::End:
        cursor.end(*timeline);
        break;
      case Move::State:
        cursor.place(*timeline, static_cast<size_t>(command.value));
        break;
      case Move::Step:
        cursor.step(*timeline, command.value);
        break;
    }
  }
  void operator()(const script::Search& command) {
    if (!app.cursor_panels().search(app.state(), command.text))
      throw std::runtime_error("search: stacks unavailable");
  }
  void operator()(const script::SearchStep& command) {
    app.cursor_panels().search_panel().step(app.state(), command.forward);
  }
  void operator()(const script::PrintCursor&) { app.print_cursor_json(); }
};

double percentile(std::vector<double> values, double fraction) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto index = static_cast<size_t>(fraction * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(index, values.size() - 1)];
}

long resident_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.starts_with("VmRSS:")) return std::stol(line.substr(6));
  }
  return -1;
}

}  // namespace

int run_screenshot(Application& app, const std::string& path) {
  if (!load_or_report(app)) return 1;
  try {
    screenshot(app, path);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "snapscope: %s\n", error.what());
    return 1;
  }
  return 0;
}

int run_script(Application& app, const std::string& script_path) {
  try {
    std::ifstream in(script_path);
    if (!in) throw std::runtime_error(script_path + ": cannot open");
    std::stringstream text;
    text << in.rdbuf();
    const std::vector<ScriptCommand> commands = parse_script(text.str(), script_path);
    if (!load_or_report(app)) return 1;
    CommandRunner runner{app};
    for (const ScriptCommand& command : commands) {
      app.render_frame();
      std::visit(runner, command);
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "snapscope: %s\n", error.what());
    return 1;
  }
  return 0;
}

int run_bench(Application& app) {
  const auto opened = Clock::now();  // the load started in Application's constructor, just before
  if (!load_or_report(app)) return 1;
  app.window().finish_gl();
  const double first_frame_ms = elapsed_ms(opened);
  ViewTransform& view = app.state().view;
  std::vector<double> frame_ms, restream_ms;
  std::vector<double> instances;
  // A fixed path: zoom into the middle, pan right, zoom back out, then idle frames.
  std::vector<std::function<void()>> path;
  for (int i = 0; i < 12; ++i) path.push_back([&] { view.zoom_x_at(view.viewport_width() / 2, 1.5); });
  for (int i = 0; i < 20; ++i) path.push_back([&] { view.pan_pixels(-view.viewport_width() / 10, 0); });
  for (int i = 0; i < 12; ++i) path.push_back([&] { view.zoom_x_at(view.viewport_width() / 2, 1 / 1.5); });
  for (int i = 0; i < 20; ++i) path.push_back([] {});  // idle: nothing changes
  std::vector<double> idle_ms;
  for (size_t i = 0; i < path.size(); ++i) {
    path[i]();
    const auto start = Clock::now();
    const bool restreamed = app.render_frame();
    app.window().finish_gl();
    const double ms = elapsed_ms(start);
    app.present();
    frame_ms.push_back(ms);
    if (restreamed) restream_ms.push_back(ms);
    if (i + 20 >= path.size()) idle_ms.push_back(ms);
    instances.push_back(static_cast<double>(app.timeline().layer().instance_count()));
  }
  std::printf("open to first frame: %.1f ms\n", first_frame_ms);
  std::printf("frames: %zu\n", frame_ms.size());
  std::printf("frame time: median %.2f ms, p95 %.2f ms\n", percentile(frame_ms, 0.5),
              percentile(frame_ms, 0.95));
  std::printf("idle frame: median %.2f ms\n", percentile(idle_ms, 0.5));
  std::printf("view change (re-stream): %zu, median %.2f ms, p95 %.2f ms\n", restream_ms.size(),
              percentile(restream_ms, 0.5), percentile(restream_ms, 0.95));
  std::printf("instances per frame: median %.0f, max %.0f\n", percentile(instances, 0.5),
              percentile(instances, 1.0));
  std::printf("rss: %.1f MiB\n", static_cast<double>(resident_kib()) / 1024.0);
  return 0;
}

}  // namespace snapscope
