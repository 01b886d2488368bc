// --script: runs a script's commands (core/view/script.h) one settled frame apart.
#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/classify/category_rules.h"
#include "core/findings/findings.h"

#include "app/headless/headless_runner.h"
#include "core/view/script.h"

namespace snapscope {
namespace {

nlohmann::json phase_labels_json(const AnnotationLanes& lanes) {
  nlohmann::json rects = nlohmann::json::array();
  for (const AnnotationLanes::LabelRect& rect : lanes.label_rects())
    rects.push_back({rect.x0, rect.y0, rect.x1, rect.y1});
  return rects;
}

std::string device_names(const Document& document) {
  std::string names;
  for (const DeviceDocument& device : document.devices)
    names += (names.empty() ? "" : ", ") + std::to_string(device.device);
  return names;
}

Comparison& comparison(Application& app, const char* command) {
  Comparison* compared = app.state().comparison();
  if (compared == nullptr)
    throw std::runtime_error(std::string(command) + ": no second run open (compare FILE)");
  return *compared;
}

// Runs one script command; the visitor keeps each command's effect in one place.
struct CommandRunner {
  Application& app;
  void operator()(const script::View& command) { app.apply_view(command.spec); }
  void operator()(const script::Fit&) { app.session().view.fit(); }
  void operator()(const script::Device& command) {
    const Document* document = app.session().document();
    if (document == nullptr || document->find_device(command.device) == nullptr)
      throw std::runtime_error("device " + std::to_string(command.device) + ": not in this snapshot" +
                               (document ? " (devices: " + device_names(*document) + ")" : std::string()));
    app.session().select_device(command.device);
  }
  void operator()(const script::ShowTimeline& command) {
    Session& session = app.session();
    session.select_kind(command.segments ? TimelineKind::Segments : TimelineKind::Blocks);
    if (command.private_pools) {
      session.wait_private_pools();
      session.poll();
      if (!session.private_pools()) {
        const std::string& error = session.private_pools_error();
        throw std::runtime_error(
            "timeline pools: " +
            (error.empty() ? std::string("this device has no private memory pool") : error));
      }
    }
    session.show_private_pools(command.private_pools);
  }
  void operator()(const script::Color& command) {
    app.session().settings.coloring = command.coloring;
    app.apply_color_mode();
  }
  void operator()(const script::Rules& command) {
    app.session().set_category_rules(load_category_rules(command.path));
    app.render_settled();
  }
  void operator()(const script::Compare& command) {
    app.state().open_compare(command.path);
    if (!app.wait_for_compare()) throw std::runtime_error(app.state().error());
  }
  void operator()(const script::Align& command) {
    const AlignMode mode = command.mode == "time"    ? AlignMode::Time
                           : command.mode == "steps" ? AlignMode::Steps
                                                     : AlignMode::Events;
    comparison(app, "align").set_mode(mode);
  }
  void operator()(const script::CompareLayout& command) {
    app.compare_panel().set_layout(command.stacked ? ComparePanel::Layout::Stacked
                                                   : ComparePanel::Layout::Overlay);
  }
  void operator()(const script::CompareBy& command) {
    app.compare_panel().set_grouping(command.grouping == "category" ? CompareGrouping::Category
                                     : command.grouping == "path"   ? CompareGrouping::CallPath
                                                                    : CompareGrouping::Location);
  }
  void operator()(const script::CompareRow& command) {
    Comparison& compared = comparison(app, "compare-row");
    app.render_settled();
    if (!app.compare_panel().click_row(compared, command.index))
      throw std::runtime_error("compare-row: no row " + std::to_string(command.index) +
                               " in the Compare tab");
  }
  void operator()(const script::PrintCompare&) {
    Comparison& compared = comparison(app, "print-compare");
    app.render_settled();
    std::printf("%s\n", app.compare_panel().compare_json(compared).dump().c_str());
    std::fflush(stdout);
  }
  void operator()(const script::PrintRanks&) {
    app.wait_for_ranks();
    std::printf("%s\n", app.rank_table().table_json().dump().c_str());
    std::fflush(stdout);
  }
  void operator()(const script::RankOpen& command) {
    app.rank_table().open_rank(app.state(), command.index);
    if (!app.wait_for_load()) throw std::runtime_error(app.state().error());
  }
  void operator()(const script::RankCompare& command) {
    app.rank_table().compare_ranks(app.state(), command.a, command.b);
    if (!app.wait_for_load() || !app.wait_for_compare()) throw std::runtime_error(app.state().error());
  }
  void operator()(const script::Finding& command) {
    app.render_settled();  // the findings are built in the background
    const std::vector<snapscope::Finding>& findings = app.session().findings();
    if (command.index >= findings.size())
      throw std::runtime_error("no finding " + std::to_string(command.index) + " (" +
                               std::to_string(findings.size()) + " found)");
    app.session().activate(findings[command.index]);
    std::printf("%s\n",
                findings_json({findings[command.index]}, *app.session().timeline())[0].dump().c_str());
    std::fflush(stdout);
  }
  void operator()(const script::TimeAxis& command) {
    app.session().settings.time_axis = command.time;
    app.session().sync_time_axis();
    if (command.time && app.session().view.warp() == nullptr) {
      app.session().settings.time_axis = false;
      throw std::runtime_error("xaxis time: this trace has no timestamps (time_us)");
    }
  }
  void operator()(const script::Click& command) {
    app.render_settled();  // the window must show the current layout before it is clicked
    app.click_window(static_cast<float>(command.x), static_cast<float>(command.y));
  }
  void operator()(const script::ChartClick& command) {
    app.render_settled();  // the chart must show the current view before it is picked
    app.timeline().click_at(app.session(), command.x, command.y);
  }
  void operator()(const script::Hover& command) {
    app.render_settled();  // the chart must show the current view before it is picked
    app.timeline().hover_at(command.x, command.y);
  }
  void operator()(const script::ZoomSelection&) { app.session().zoom_to_selection(); }
  void operator()(const script::Phase& command) {
    const PhaseTable& table = app.analysis_pane().phases().table(app.session());
    if (command.index >= table.rows.size())
      throw std::runtime_error("no phase " + std::to_string(command.index) + " (" +
                               std::to_string(table.rows.size()) + " phases)");
    const PhaseRow& row = table.rows[command.index];
    select_phase(app.session(), row);
    const nlohmann::json line = {{"phase", row.name},
                                 {"start_state", row.start_state},
                                 {"end_state", row.end_state},
                                 {"peak_state", row.peak_state}};
    std::printf("%s\n", line.dump().c_str());
    std::fflush(stdout);
  }
  void operator()(const script::YFit& command) {
    YFitSettings& fit = app.session().settings.y_fit;
    fit.enabled = command.mode != script::YFit::Mode::Off;
    fit.raise_floor = command.mode == script::YFit::Mode::Floor;
  }
  void operator()(const script::Select& command) {
    const auto elem = app.session().find_by_address(command.address);
    if (!elem) throw std::runtime_error("no allocation at address " + std::to_string(command.address));
    app.session().select(elem);
  }
  void operator()(const script::Wait& command) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    do {
      app.render_frame();
      app.present();
    } while (std::chrono::duration<double, std::milli>(Clock::now() - start).count() < command.milliseconds);
  }
  void operator()(const script::Screenshot& command) { capture_screenshot(app, command.path, false); }
  void operator()(const script::Export& command) {
    app.export_dialog().run(app.session(), command.format, command.path,
                            [this](const std::string& path) { capture_screenshot(app, path, true); });
  }
  void operator()(const script::PrintSelection&) { app.print_selection_json(); }
  void operator()(const script::PrintView&) {
    const ChartPanel& panel = app.timeline();
    const ViewTransform& view = app.session().view;
    const DataRect& visible = view.visible();
    const nlohmann::json line = {
        {"chart",
         {{"x", panel.chart_x()},
          {"y", panel.chart_y()},
          {"width", view.viewport_width()},
          {"height", view.viewport_height()}}},
        {"view", {{"x0", visible.x0}, {"x1", visible.x1}, {"y0", visible.y0}, {"y1", visible.y1}}},
        {"device", app.session().settings.device},
        {"hovered", app.session().hovered ? nlohmann::json(*app.session().hovered) : nlohmann::json(nullptr)},
        {"instances", panel.layer().instance_count()},
        {"note_markers", panel.note_markers()},
        {"phase_labels", phase_labels_json(app.analysis_pane().lanes())},
        {"inspector_shown", app.session().selected().has_value()}};
    std::printf("%s\n", line.dump().c_str());
    std::fflush(stdout);
  }
  void operator()(const script::Cursor& command) {
    const Timeline* timeline = app.session().timeline();
    if (timeline == nullptr) throw std::runtime_error("cursor: no timeline");
    TimeCursor& cursor = app.session().cursor;
    using Move = script::Cursor::Move;
    switch (command.move) {
      case Move::Peak:
        app.session().cursor_to_peak();
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
      case Move::None:
        cursor.clear();
        break;
    }
  }
  void operator()(const script::Search& command) {
    if (!app.analysis_pane().search(app.session(), command.text))
      throw std::runtime_error("search: stacks unavailable");
  }
  void operator()(const script::SearchStep& command) {
    app.analysis_pane().search_panel().step(app.session(), command.forward);
  }
  void operator()(const script::PrintCursor&) { app.print_cursor_json(); }
  void operator()(const script::PrintModules&) { app.print_modules_json(); }
  void operator()(const script::Tab& command) {
    if (command.name == script::Tab::Name::Compare && app.state().compare_session() == nullptr)
      throw std::runtime_error("tab compare: no second run open (compare FILE)");
    if (command.in_allocator_pane()) {
      app.allocator_pane().select_tab(command.name);
    } else {
      app.analysis_pane().select_tab(command.name);
    }
  }
  void operator()(const script::TreeSearch& command) { app.analysis_pane().tree_search(command.text); }
};

}  // namespace

int run_script(Application& app, const std::string& script_path) {
  app.timeline().set_os_pointer(false);  // the pointer rests wherever the display put it
  try {
    std::ifstream in(script_path);
    if (!in) throw std::runtime_error(script_path + ": cannot open");
    std::stringstream text;
    text << in.rdbuf();
    const std::vector<ScriptCommand> commands = parse_script(text.str(), script_path);
    if (!load_or_report(app)) return 1;
    CommandRunner runner{app};
    for (const ScriptCommand& command : commands) {
      app.render_settled();
      app.present();
      std::visit(runner, command);
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "snapscope: %s\n", error.what());
    return 1;
  }
  return 0;
}

}  // namespace snapscope
