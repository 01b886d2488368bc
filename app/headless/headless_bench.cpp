// --bench: zooms from the whole trace to single events and back and reports frame times, view
// changes, idle and redraw cost, click to inspector, first frame and memory; and, from the
// process's start, the first chart frame and every panel's data ready (a cold open when this run
// converted the pickle).
#include "app/headless/headless_runner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

#include <unistd.h>

#include "core/util/bench_measure.h"

namespace snapscope {
namespace {

using Clock = std::chrono::steady_clock;

double elapsed_ms(Clock::time_point since) {
  return std::chrono::duration<double, std::milli>(Clock::now() - since).count();
}

// VmRSS: resident now; VmHWM: the peak.
long resident_kib(const std::string& field = "VmRSS:") {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.starts_with(field)) return std::stol(line.substr(field.size()));
  }
  return -1;
}

struct BenchReport {
  double loaded_ms = 0, first_frame_ms = 0;
  double start_first_frame_ms = 0, start_ready_ms = 0;  // from the process's start
  bool converted = false;                               // this run converted the pickle
  bool database_writing_at_first_frame = false;         // the chart came before elements.db
  size_t first_frame_views = 0;                         // chart views requested until it was drawn
  std::vector<double> frame_ms, instances;
  std::vector<std::pair<double, double>> band_frame_ms;  // (steps per pixel, frame ms)
  std::vector<double> restream_ms;                       // view requested -> its frame drawn
  std::vector<std::pair<double, double>> settled_ms;     // (steps per pixel, ms to settle)
  std::vector<double> idle_ms, redraw_ms;
  double click_ms = -1;
  bool click_filled = false;
  double rss_mib = 0, rss_loaded_mib = 0, rss_peak_mib = 0;
  std::string load_steps;  // LoadProgress::stages
  size_t allocations = 0;  // elements of the shown timeline
};

double steps_per_px(const ViewTransform& view) { return view.visible().width() / view.viewport_width(); }

// One frame as the interactive loop draws it: the view change, then a frame that does not wait
// for the chart's worker (a newer image replaces the placeholder whenever one is ready).
double timed_frame(Application& app) {
  const auto start = Clock::now();
  app.render_frame();
  app.window().finish_gl();
  const double ms = elapsed_ms(start);
  app.present();
  return ms;
}

// Continuous motion from the whole trace down to single events (16 px per timestep), a pan
// there, and back out: one view change per frame, like a wheel or a drag.
void run_motion(Application& app, BenchReport& report) {
  ViewTransform& view = app.session().view;
  const auto zoom_in = [&] { view.zoom_x_at(view.viewport_width() / 2, 1.25); };
  const auto zoom_out = [&] { view.zoom_x_at(view.viewport_width() / 2, 1 / 1.25); };
  for (int i = 0; i < 200 && steps_per_px(view) > 1.0 / 16; ++i) {
    zoom_in();
    report.frame_ms.push_back(timed_frame(app));
    report.band_frame_ms.emplace_back(steps_per_px(view), report.frame_ms.back());
    report.instances.push_back(static_cast<double>(app.timeline().layer().instance_count()));
  }
  for (int i = 0; i < 40; ++i) {
    view.pan_pixels(-view.viewport_width() / 20, 0);
    report.frame_ms.push_back(timed_frame(app));
    report.band_frame_ms.emplace_back(steps_per_px(view), report.frame_ms.back());
    report.instances.push_back(static_cast<double>(app.timeline().layer().instance_count()));
  }
  const double whole = view.bounds().width() / view.viewport_width();
  for (int i = 0; i < 200 && steps_per_px(view) < whole * 0.999; ++i) {
    zoom_out();
    report.frame_ms.push_back(timed_frame(app));
    report.band_frame_ms.emplace_back(steps_per_px(view), report.frame_ms.back());
    report.instances.push_back(static_cast<double>(app.timeline().layer().instance_count()));
  }
}

// Time from a view change to the frame built for it on screen, at fixed zoom levels.
void measure_settled_views(Application& app, BenchReport& report) {
  ViewTransform& view = app.session().view;
  view.fit();
  const DataRect whole = view.visible();
  for (double fraction : {1.0, 0.1, 0.01, 0.001, 1e-4, 1e-5, 1e-6}) {
    const double width = std::max(whole.width() * fraction, view.viewport_width() / 16);
    const double centre = whole.x0 + whole.width() * 0.37;
    view.set_visible({centre - width / 2, centre + width / 2, whole.y0, whole.y1});
    const auto start = Clock::now();
    app.render_settled();
    app.window().finish_gl();
    report.settled_ms.emplace_back(steps_per_px(view), elapsed_ms(start));
    report.instances.push_back(static_cast<double>(app.timeline().layer().instance_count()));
    app.present();
    if (width <= view.viewport_width() / 16) break;
  }
  app.timeline().layer().take_restream_latencies();
}

// Idle: nothing changes, so nothing is redrawn. Redraw: the same frame forced through the GL
// (what hovering costs when the pointer's move changes something small).
void measure_idle(Application& app, BenchReport& report) {
  for (int i = 0; i < 20; ++i) report.idle_ms.push_back(timed_frame(app));
  for (int i = 0; i < 10; ++i) {
    app.window().force_redraw();
    report.redraw_ms.push_back(timed_frame(app));
  }
}

// Clicks the middle of an allocation drawn on its own; timed until the frame showing its
// inspector is drawn. False when the frame draws none (all of it aggregated).
bool click_drawn_allocation(Application& app, BenchReport& report) {
  const ChartLayer& layer = app.timeline().layer();
  const ChartView& frame = layer.frame_view();
  for (const ChartInstance& shape : layer.instances()) {
    if (shape.elem == kNoIndex) continue;
    const double px = (shape.x0 + shape.x1) / 2 / frame.steps_per_px();
    const double py = frame.height - (shape.bottom0 + shape.height / 2) / frame.bytes_per_px();
    if (!layer.pick(px, py)) continue;
    const auto start = Clock::now();
    app.timeline().click_at(app.session(), app.timeline().chart_x() + px, app.timeline().chart_y() + py);
    app.render_frame();
    app.window().finish_gl();
    report.click_ms = elapsed_ms(start);
    report.click_filled = app.session().details().has_value();
    app.present();
    return true;
  }
  return false;
}

// Frames the largest allocation's lifetime, where it is drawn on its own whatever the trace.
void zoom_onto_largest_allocation(Application& app) {
  Session& session = app.session();
  const Timeline* shown = session.timeline();
  if (shown == nullptr) return;
  std::optional<uint32_t> largest;
  for (uint32_t elem = 0; elem < shown->element_count(); ++elem) {
    if (shown->ever_live(elem) && (!largest || shown->element(elem).size > shown->element(*largest).size))
      largest = elem;
  }
  if (!largest) return;
  session.select(largest);
  session.zoom_to_selection();
  session.select(std::nullopt);
  app.render_settled();
  app.present();
}

void measure_click(Application& app, BenchReport& report) {
  if (click_drawn_allocation(app, report)) return;
  zoom_onto_largest_allocation(app);
  click_drawn_allocation(app, report);
}

// Frame time per zoom decade (steps per pixel), so no zoom level hides behind the overall median.
void print_bands(const BenchReport& report) {
  std::vector<std::pair<int, std::vector<double>>> bands;
  for (const auto& [spp, ms] : report.band_frame_ms) {
    const int decade = static_cast<int>(std::floor(std::log10(std::max(spp, 1e-9))));
    if (bands.empty() || bands.back().first != decade) bands.push_back({decade, {}});
    bands.back().second.push_back(ms);
  }
  std::sort(bands.begin(), bands.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t i = 0; i < bands.size();) {  // the path crosses each decade twice: merge them
    size_t j = i + 1;
    while (j < bands.size() && bands[j].first == bands[i].first) {
      bands[i].second.insert(bands[i].second.end(), bands[j].second.begin(), bands[j].second.end());
      bands.erase(bands.begin() + static_cast<std::ptrdiff_t>(j));
    }
    std::printf("  zoom 1e%d steps/px: %zu frames, median %.2f ms, p95 %.2f ms\n", bands[i].first,
                bands[i].second.size(), percentile(bands[i].second, 0.5), percentile(bands[i].second, 0.95));
    i = j;
  }
}

void print_report(const BenchReport& report) {
  std::printf("allocations: %zu\n", report.allocations);
  std::printf("open to document loaded: %.1f ms\n", report.loaded_ms);
  std::printf("open to first frame: %.1f ms\n", report.first_frame_ms);
  std::printf("process start to first chart frame: %.0f ms, to every panel ready: %.0f ms (%s)\n",
              report.start_first_frame_ms, report.start_ready_ms,
              report.converted ? "cold: converted the pickle" : "warm: no conversion");
  std::printf("first chart frame drawn while elements.db was still being written: %s\n",
              report.database_writing_at_first_frame ? "yes" : "no");
  std::printf("chart views requested until the first chart frame: %zu\n", report.first_frame_views);
  std::printf("frames: %zu\n", report.frame_ms.size());
  std::printf("frame time: median %.2f ms, p95 %.2f ms\n", percentile(report.frame_ms, 0.5),
              percentile(report.frame_ms, 0.95));
  print_bands(report);
  std::printf("view change (re-stream, request to frame drawn): %zu, median %.2f ms, p95 %.2f ms\n",
              report.restream_ms.size(), percentile(report.restream_ms, 0.5),
              percentile(report.restream_ms, 0.95));
  for (const auto& [spp, ms] : report.settled_ms)
    std::printf("  settle at %.3g steps/px: %.1f ms\n", spp, ms);
  std::printf("idle frame: median %.2f ms, p95 %.2f ms\n", percentile(report.idle_ms, 0.5),
              percentile(report.idle_ms, 0.95));
  std::printf("full redraw, nothing changed: median %.2f ms\n", percentile(report.redraw_ms, 0.5));
  std::printf("click to inspector: %.2f ms%s\n", report.click_ms,
              report.click_filled ? "" : " (not filled!)");
  std::printf("instances per frame: median %.0f, max %.0f\n", percentile(report.instances, 0.5),
              percentile(report.instances, 1.0));
  std::printf("rss: %.1f MiB (document loaded: %.1f MiB, peak %.1f MiB)\n", report.rss_mib,
              report.rss_loaded_mib, report.rss_peak_mib);
  std::printf("load steps (seconds from the load's start; the database's run on their own thread):\n%s",
              report.load_steps.c_str());
  // Last line: one row for tests/bench/run-bench.
  std::printf(
      "summary: allocations=%zu first_frame_ms=%.0f frame_median_ms=%.1f frame_p95_ms=%.1f "
      "restream_median_ms=%.0f "
      "restream_p95_ms=%.0f idle_ms=%.2f redraw_ms=%.1f click_ms=%.1f instances_max=%.0f rss_mib=%.0f "
      "rss_peak_mib=%.0f converted=%d cold_first_frame_ms=%.0f cold_ready_ms=%.0f "
      "db_writing_at_first_frame=%d first_frame_views=%zu\n",
      report.allocations, report.first_frame_ms, percentile(report.frame_ms, 0.5),
      percentile(report.frame_ms, 0.95), percentile(report.restream_ms, 0.5),
      percentile(report.restream_ms, 0.95), percentile(report.idle_ms, 0.5),
      percentile(report.redraw_ms, 0.5), report.click_ms, percentile(report.instances, 1.0), report.rss_mib,
      report.rss_peak_mib, report.converted ? 1 : 0, report.start_first_frame_ms, report.start_ready_ms,
      report.database_writing_at_first_frame ? 1 : 0, report.first_frame_views);
}
}  // namespace

int run_bench(Application& app) {
  app.timeline().set_os_pointer(false);  // the pointer rests wherever the display put it
  const auto opened = Clock::now();      // the load started in Application's constructor, just before
  if (!load_or_report(app)) return 1;
  BenchReport report;
  const double loaded_ms = elapsed_ms(opened);
  report.rss_loaded_mib = static_cast<double>(resident_kib()) / 1024.0;
  // The chart on screen; the annotation lanes (built in the background) may follow.
  app.render_settled(Application::Settle::ChartOnly);
  app.window().finish_gl();
  app.present();
  report.loaded_ms = loaded_ms;
  report.first_frame_ms = elapsed_ms(opened);
  report.start_first_frame_ms = process_age_ms();
  report.converted = app.state().loader().progress().converted;
  report.database_writing_at_first_frame = app.session().database_writing();
  report.first_frame_views = app.timeline().layer().views_requested();
  app.render_settled();  // the lanes too, so they do not change the layout during the motion below
  app.present();
  report.start_ready_ms = process_age_ms();          // every started task finished and its panel drawn
  app.timeline().layer().take_restream_latencies();  // the first frame is reported above
  run_motion(app, report);
  report.restream_ms = app.timeline().layer().take_restream_latencies();
  measure_settled_views(app, report);
  measure_idle(app, report);
  measure_click(app, report);
  report.rss_mib = static_cast<double>(resident_kib()) / 1024.0;
  report.rss_peak_mib = static_cast<double>(resident_kib("VmHWM:")) / 1024.0;
  report.load_steps = app.state().loader().progress().stages.format();
  report.allocations = app.session().timeline() ? app.session().timeline()->element_count() : 0;
  print_report(report);
  return 0;
}

}  // namespace snapscope
