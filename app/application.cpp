#include "app/application.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>

#include "app/chart/site_legend.h"
#include "app/menu_bar.h"
#include "app/panels/inspector_panel.h"
#include "app/widgets/splitter.h"
#include "app/widgets/theme.h"
#include "core/analysis/state_mapping.h"
#include "core/classify/category.h"
#include "core/document/rank_set.h"
#include "core/util/release_memory.h"
#include "render/framebuffer_png.h"

namespace snapscope {
namespace {

using theme::kAllocatorPaneShare, theme::kAnalysisPaneShare, theme::kInspectorWidth,
    theme::kInspectorMaxShare, theme::kMinimapHeight, theme::kMinPane, theme::kSplitterThickness,
    theme::kStatusHeight, theme::kUsageStripHeight;
constexpr double kIdleWaitSeconds = 0.25;      // nothing happening: sleep until input or this long
constexpr double kBusyWaitSeconds = 1.0 / 30;  // background work: look for its results
// Loading: redraw the progress bar. Each frame costs llvmpipe tens of ms of CPU, taken from the
// pickle reader and the database writer that share the cores; 10 a second is smooth enough.
constexpr double kLoadingFrameSeconds = 1.0 / 10;
// A first load that ends sooner goes straight to its document, with no progress frame first: the
// window's first present compiles the GL driver's shaders (about 0.2 s on llvmpipe), and a
// document that lands during it waits; drawn after the document instead, that compile runs beside
// the chart's first build. The window has only just appeared by then.
constexpr double kFirstProgressFrameSeconds = 0.5;
constexpr int kSettleFrames = 3;
constexpr int kMaxSettleFrames = 100;  // headless: the view may still move while ImGui lays out

}  // namespace

namespace {

// The snapshot to load while the window is being created (a job's rank directory is not one).
std::string snapshot_to_open_first(const AppOptions& options) {
  return options.path.empty() || is_rank_directory(options.path) ? std::string() : options.path;
}

}  // namespace

Application::Application(const AppOptions& options)
    : options_(options), state_(snapshot_to_open_first(options)), window_("snapscope", options.size) {
  // Wakes run_interactive's wait when the chart's worker finished a frame (thread-safe call).
  timeline_.layer().set_frame_ready_callback([] { glfwPostEmptyEvent(); });
  timeline_b_.layer().set_frame_ready_callback([] { glfwPostEmptyEvent(); });
  state_.set_ready_callback([] { glfwPostEmptyEvent(); });
  session().settings.device = options.device;
  session().settings.kind = options.segments ? TimelineKind::Segments : TimelineKind::Blocks;
  session().settings.private_pools = options.private_pools;
  session().settings.cursor_at_peak = options.cursor_at_peak;
  if (!options.path.empty() && is_rank_directory(options.path)) {
    rank_table_.load(options.path, options.device);  // a job's ranks: the rank table
  }
  if (!options.compare_path.empty()) state_.open_compare(options.compare_path);
}

void Application::forget_session() {
  forget_compare();
  timeline_.layer().reset();
  analysis_pane_.reset();
  allocator_pane_.reset();
  minimap_.reset();
}

void Application::forget_compare() {
  compare_panel().reset();
  timeline_b_.layer().reset();
}

bool Application::stacked_compare() {
  const Session* run_b = state_.compare_session();
  return run_b != nullptr && run_b->timeline() != nullptr && session().timeline() != nullptr &&
         compare_panel().layout() == ComparePanel::Layout::Stacked;
}

bool Application::draw_charts(float chart_width, float height) {
  const float plot_width = chart_width - ChartPanel::kAxisLeft;
  Comparison* compared = state_.comparison();
  if (!stacked_compare()) {
    const bool restreamed = timeline_.draw(session(), chart_width, height);
    allocator_pane_.draw_oom_markers(session(), timeline_.chart_x(), timeline_.chart_y(), plot_width,
                                     height - ChartPanel::kAxisBottom);
    if (compared && session().timeline())
      compare_panel().draw_overlay(*compared, timeline_.chart_x(), timeline_.chart_y(), plot_width,
                                   height - ChartPanel::kAxisBottom);
    return restreamed;
  }
  const float height_a = std::floor(height / 2);
  bool restreamed = timeline_.draw(session(), chart_width, height_a);
  allocator_pane_.draw_oom_markers(session(), timeline_.chart_x(), timeline_.chart_y(), plot_width,
                                   height_a - ChartPanel::kAxisBottom);
  compared->follow_a();
  ImGui::PushID("run-b");
  restreamed = timeline_b_.draw(compared->b(), chart_width, height - height_a) || restreamed;
  ImGui::PopID();
  compare_panel().draw_b_label(*compared, timeline_b_.chart_x(), timeline_b_.chart_y());
  return restreamed;
}

void Application::on_document_loaded() {
  release_free_memory();  // what parsing allocations.json freed stays resident otherwise
  timeline_.layer().reset();
  minimap_.reset();
  fit_both_runs();  // a compared run stays in view (and a closed one no longer counts)
  if (options_.view) apply_view(*options_.view);
  apply_color_mode();
  window_.set_title("snapscope - " + session().document()->opened_path);
}

void Application::apply_view(const ViewSpec& spec) {
  DataRect rect = session().view.visible();
  rect.x0 = spec.x0;
  rect.x1 = spec.x1;
  if (spec.events && session().timeline()) {
    const auto [first, last] =
        event_steps(*session().timeline(), static_cast<int64_t>(spec.x0), static_cast<int64_t>(spec.x1));
    rect.x0 = static_cast<double>(first);
    rect.x1 = static_cast<double>(last);
  }
  if (spec.y0 && spec.y1) {  // an explicit y range holds: y fitting is off
    rect.y0 = *spec.y0;
    rect.y1 = *spec.y1;
    session().settings.y_fit.enabled = false;
  }
  session().view.set_visible(rect);
}

void Application::apply_color_mode() {
  std::vector<uint32_t> keys;
  std::vector<Rgba> palette;
  colored_categories_ = nullptr;
  if (session().settings.coloring == ChartColoring::Site) keys = session().site_coloring().keys;
  if (session().settings.coloring == ChartColoring::Category) {
    colored_categories_ = session().categories();
    if (colored_categories_) {
      const Classification& classification = colored_categories_->classification;
      keys.assign(classification.categories.begin(), classification.categories.end());
      palette = category_palette(classification.names);
    }
  }
  timeline_.layer().set_color_keys(std::move(keys), std::move(palette));
}

bool Application::render_frame() {
  for (const std::string& path : window_.take_dropped_paths()) state_.open(path);
  // The chart's worker and the panels read the old session: let go of it before it goes away.
  if (state_.poll_loader([this] { forget_session(); })) on_document_loaded();
  session().poll();
  if (state_.poll_compare_loader([this] { forget_compare(); })) fit_both_runs();
  if (Comparison* compared = state_.comparison()) compared->poll();
  rank_table_.poll();
  // Categories arrive in the background (and again after new rules): recolour when they do; and
  // sites once the database they are read from lands.
  if (session().settings.coloring == ChartColoring::Category && session().categories() != colored_categories_)
    apply_color_mode();
  if (session().database_generation() != colored_database_generation_) {
    colored_database_generation_ = session().database_generation();
    if (session().settings.coloring == ChartColoring::Site) apply_color_mode();
  }
  analysis_pane_.before_frame(session());
  allocator_pane_.before_frame(session());
  window_.begin_frame();
  // The first chart frame of a load is drawn sooner when the GL driver has compiled it before.
  if (state_.loader().busy()) timeline_.layer().warm_up();
  const MenuActions actions = draw_menu_bar(state_, browser_);
  if (actions.quit) quit_ = true;
  if (actions.color_changed) apply_color_mode();
  if (actions.export_requested) export_dialog_.open(session());
  export_dialog_.draw(session(), [this](const std::string& path) {
    pending_png_ = path;
    pending_png_frames_ = 2;
  });
  if (actions.compare_requested) browser_.open(FileBrowser::Purpose::Compare);
  if (actions.compare_closed) {
    forget_compare();
    state_.close_compare();
    fit_both_runs();
  }
  if (auto chosen = browser_.draw()) {
    if (browser_.purpose() == FileBrowser::Purpose::Compare) {
      state_.open_compare(*chosen);
    } else {
      state_.open(*chosen);
    }
  }
  handle_global_keys();
  const ImGuiIO& io = ImGui::GetIO();
  const float top = ImGui::GetFrameHeight();
  ImGui::SetNextWindowPos(ImVec2(0, top));
  ImGui::SetNextWindowSize(ImVec2(io.DisplaySize.x, io.DisplaySize.y - top - kStatusHeight));
  ImGui::Begin("##workspace", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoScrollWithMouse |
                   ImGuiWindowFlags_NoBackground);
  bool restreamed = false;
  const ImVec2 available = ImGui::GetContentRegionAvail();
  if (panes_.inspector_width == 0) {
    panes_.inspector_width = kInspectorWidth;
    panes_.analysis_height = available.y * kAnalysisPaneShare;
  }
  // The inspector takes room only while it has something to show, and never most of a small window.
  const bool inspector_shown = session().selected().has_value();
  if (inspector_shown)
    panes_.inspector_width =
        std::clamp(panes_.inspector_width, kMinPane, std::max(kMinPane, available.x * kInspectorMaxShare));
  const float chart_width =
      inspector_shown ? available.x - panes_.inspector_width - kSplitterThickness : available.x;
  ImGui::BeginGroup();
  const ChartColoring coloring = session().settings.coloring;
  const float legend_height = coloring == ChartColoring::Site       ? site_legend_height()
                              : coloring == ChartColoring::Category ? category_view_height()
                                                                    : 0;
  analysis_pane_.draw_search_bar(session());
  const float lanes_height = analysis_pane_.lanes_height(session());
  analysis_pane_.draw_lanes(session(), ImGui::GetCursorScreenPos().x + ChartPanel::kAxisLeft,
                            chart_width - ChartPanel::kAxisLeft);
  const float pane_height = session().document() ? panes_.analysis_height : 0;
  const float bar_height = ImGui::GetFrameHeightWithSpacing();
  const float strip_height = session().document() ? kUsageStripHeight + 4 : 0;
  const float splitter_height = pane_height > 0 ? kSplitterThickness : 0;
  const float timeline_height = available.y - kMinimapHeight - legend_height - 8 - bar_height - lanes_height -
                                pane_height - strip_height - splitter_height;
  restreamed = draw_charts(chart_width, timeline_height);
  if (strip_height > 0) {
    allocator_pane_.draw_usage_strip(session(), ChartPanel::kAxisLeft, chart_width - ChartPanel::kAxisLeft,
                                     kUsageStripHeight);
  }
  ImGui::Dummy(ImVec2(1, 4));
  minimap_.draw(session(), ChartPanel::kAxisLeft, chart_width - ChartPanel::kAxisLeft, kMinimapHeight);
  if (coloring == ChartColoring::Site) draw_site_legend(session(), chart_width);
  if (coloring == ChartColoring::Category)
    category_strip_.draw(session(), ChartPanel::kAxisLeft, chart_width);
  if (pane_height > 0) {
    const float max_pane = available.y - bar_height - lanes_height - kMinimapHeight - kMinPane;
    // Dragging the bar up grows the analysis pane (and shrinks the chart above it).
    splitter("##split-analysis", SplitAxis::Horizontal, kSplitterThickness, chart_width,
             panes_.analysis_height, kMinPane, max_pane, false);
    if (panes_.allocator_width == 0) panes_.allocator_width = chart_width * kAllocatorPaneShare;
    panes_.allocator_width =
        std::clamp(panes_.allocator_width, kMinPane, std::max(kMinPane, chart_width - kMinPane));
    const float analysis_width = chart_width - panes_.allocator_width - kSplitterThickness;
    analysis_pane_.draw_analysis_pane(session(), analysis_width, 0, state_.comparison());
    ImGui::SameLine(0, 0);
    splitter("##split-allocator", SplitAxis::Vertical, kSplitterThickness, ImGui::GetContentRegionAvail().y,
             panes_.allocator_width, kMinPane, chart_width - kMinPane, false);
    ImGui::SameLine(0, 0);
    allocator_pane_.draw_pane(session(), panes_.allocator_width, 0);
  }
  ImGui::EndGroup();
  if (inspector_shown) {
    ImGui::SameLine(0, 0);
    splitter("##split-inspector", SplitAxis::Vertical, kSplitterThickness, available.y,
             panes_.inspector_width, kMinPane, available.x - 2 * kMinPane, false);
    ImGui::SameLine(0, 0);
    ImGui::BeginChild("inspector", ImVec2(0, 0), true);
    draw_inspector(session());
    ImGui::EndChild();
  }
  inspector_shown_ = inspector_shown;
  ImGui::End();
  rank_table_.draw(state_);
  draw_status_bar(state_, io.DisplaySize.y - kStatusHeight, io.DisplaySize.x, kStatusHeight);
  if (restreamed || !pending_png_.empty()) window_.force_redraw();  // texture changed / PNG wanted
  window_.end_frame();
  write_pending_png();
  frame_drawn_ = true;
  return restreamed;
}

void Application::click_window(float x, float y) {
  for (const bool down : {false, true, false}) {
    window_.set_scripted_pointer(GuiWindow::ScriptedPointer{x, y, down});
    render_frame();
    present();
  }
  window_.set_scripted_pointer(std::nullopt);
  render_frame();
}

PixelRect Application::chart_png_rect() const {
  const float scale = static_cast<float>(window_.framebuffer_width()) /
                      std::max(1.0f, ImGui::GetIO().DisplaySize.x);  // HiDPI
  const auto pixels = [scale](float v) { return static_cast<int>(std::lround(v * scale)); };
  return {pixels(timeline_.chart_x() - ChartPanel::kAxisLeft), pixels(timeline_.chart_y()),
          pixels(timeline_.chart_width() + ChartPanel::kAxisLeft),
          pixels(timeline_.chart_height() + ChartPanel::kAxisBottom)};
}

void Application::write_chart_png(const std::string& path) {
  write_framebuffer_png(path, window_.framebuffer_width(), window_.framebuffer_height(), chart_png_rect());
}

void Application::write_pending_png() {
  if (pending_png_.empty() || --pending_png_frames_ > 0) return;
  try {
    write_chart_png(pending_png_);
    session().set_export_message("exported png to " + pending_png_);
  } catch (const std::exception& error) {
    session().set_export_message(error.what());
  }
  pending_png_.clear();
}

void Application::handle_global_keys() {
  const std::vector<GuiWindow::KeyPress> presses = window_.take_key_presses();
  for (const GuiWindow::KeyPress& press : presses) {
    const bool ctrl = (press.mods & GLFW_MOD_CONTROL) != 0;
    const bool shift = (press.mods & GLFW_MOD_SHIFT) != 0;
    // Ctrl+P prints the selection and Ctrl+J the cursor as JSON: the hooks end-to-end tests use to
    // read the inspector and the cursor panels (plain P jumps the cursor to the peak). Ctrl
    // combinations type nothing, so they also work while a text field is active.
    if (ctrl && press.key == GLFW_KEY_P) print_selection_json();
    if (ctrl && press.key == GLFW_KEY_J) print_cursor_json();
    // Ctrl+K prints the allocator state and the SQL result; Ctrl+E focuses the SQL console.
    if (ctrl && press.key == GLFW_KEY_K) print_allocator_json();
    if (ctrl && !shift && press.key == GLFW_KEY_E) allocator_pane_.focus_sql_console();
    if (ctrl && press.key == GLFW_KEY_Q) quit_ = true;
    if (ctrl && shift && press.key == GLFW_KEY_E && !session().database_writing())
      export_dialog_.open(session());
    if (ImGui::GetIO().WantTextInput) continue;
    if (ctrl && press.key == GLFW_KEY_O) browser_.open();
    if (press.key == GLFW_KEY_ESCAPE) session().select(std::nullopt);
  }
}

void Application::print_selection_json() {
  const auto& details = session().details();
  std::string line = "null";
  if (details) {
    // The category comes from a background task: the same answer whenever the hook runs.
    session().wait_settled();
    nlohmann::json json = details_to_json(*details, session().settings.show_all_frames);
    const SessionCategories* categories = session().categories();
    if (categories && session().selected()) {
      json["category"] = categories->classification.category_name(*session().selected());
      json["category_reason"] = session().category_reason(*session().selected());
    }
    line = json.dump();
  } else if (session().selected() && !session().error().empty()) {
    line = nlohmann::json{{"error", session().error()}}.dump();  // the row could not be read
  }
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
}

void Application::print_cursor_json() {
  nlohmann::json json = analysis_pane_.cursor_json(session());
  if (!json.value("loaded", true)) json["error"] = state_.error();  // the load's, not the session's
  if (json.is_object()) {
    json["panes"] = {{"inspector_width", inspector_shown_ ? panes_.inspector_width : 0.0f},
                     {"analysis_height", panes_.analysis_height},
                     {"allocator_width", panes_.allocator_width}};
  }
  std::printf("%s\n", json.dump().c_str());
  std::fflush(stdout);
}

void Application::print_modules_json() {
  std::printf("%s\n", analysis_pane_.modules().json(session()).dump().c_str());
  std::fflush(stdout);
}

void Application::print_allocator_json() {
  std::printf("%s\n", allocator_pane_.json(session()).dump().c_str());
  std::fflush(stdout);
}

bool Application::panels_settled() {
  const Comparison* compared = state_.comparison();
  return session().settled() && analysis_pane_.settled(session()) &&
         (compared == nullptr || compared->settled());
}

void Application::fit_both_runs() {
  const Session* run_b = state_.compare_session();
  const DeviceDocument* device_b = run_b ? run_b->device() : nullptr;
  const uint64_t peak_b = device_b ? std::max(device_b->blocks.peak_bytes(), device_b->reserved.peak()) : 0;
  session().fit_view(peak_b);
  session().settings.y_fit.at_least = peak_b;
}

bool Application::wait_for_compare() {
  while (state_.compare_loading()) {
    render_frame();
    present();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  render_frame();  // installs the result
  return state_.compare_session() != nullptr;
}

bool Application::render_settled(Settle what) {
  const bool panels = what == Settle::Everything;
  bool restreamed = render_frame();
  // ImGui lays windows out from the previous frame: the chart's rectangle is settled when two
  // frames in a row agree on it.
  ChartRect before = chart_rect();
  bool layout_moved = true;
  for (int frame = 0; frame < kMaxSettleFrames && (layout_moved || !timeline_.layer().settled() ||
                                                   (stacked_compare() && !timeline_b_.layer().settled()) ||
                                                   (panels && !panels_settled()));
       ++frame) {
    // The last frame goes to the screen while the workers build: the GL driver's work (llvmpipe
    // draws on the CPU, and compiles its shaders at a first frame) runs beside theirs.
    present();
    if (panels) session().wait_settled();  // the lanes above the chart change its height
    if (Session* run_b = state_.compare_session(); panels && run_b) run_b->wait_settled();
    timeline_.layer().wait_for_build();  // sleep, leaving the cores to the worker
    if (stacked_compare()) timeline_b_.layer().wait_for_build();
    restreamed = render_frame() || restreamed;
    const ChartRect after = chart_rect();
    layout_moved = after != before;
    before = after;
  }
  return restreamed;
}

Application::ChartRect Application::chart_rect() const {
  const ViewTransform& view = state_.session().view;
  return {timeline_.chart_x(), timeline_.chart_y(), view.viewport_width(), view.viewport_height()};
}

bool Application::progress_frame_due() const {
  if (frame_drawn_) return true;  // what is on screen stays live (a document, the file browser)
  const DocumentLoader& loader = state_.loader();
  return loader.has_result() || loader.running_seconds() >= kFirstProgressFrameSeconds;
}

bool Application::wait_for_ranks() {
  rank_table_.wait();
  render_frame();
  return rank_table_.table() != nullptr;
}

bool Application::wait_for_load() {
  if (rank_table_.active() && !state_.loader().busy() && session().document() == nullptr)
    return wait_for_ranks();
  // Progress frames at the interactive loop's rate: drawing more often (llvmpipe draws on the
  // CPU) only takes cores from the load. The loader is still polled every few milliseconds.
  const auto period = std::chrono::duration<double>(kLoadingFrameSeconds);
  auto next_frame = std::chrono::steady_clock::now();
  while (state_.loader().busy() && !state_.loader().has_result()) {
    if (progress_frame_due() && std::chrono::steady_clock::now() >= next_frame) {
      render_frame();
      present();
      next_frame = std::chrono::steady_clock::now() +
                   std::chrono::duration_cast<std::chrono::steady_clock::duration>(period);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  render_frame();  // installs the result
  present();       // and shows it: see render_settled
  return session().document() != nullptr && state_.error().empty();
}

int Application::run_interactive() {
  // ImGui settles some state (hover, popups, layout) one frame late: after input, draw a few
  // more frames; when nothing happens, draw none.
  int frames_owed = kSettleFrames;
  while (!window_.should_close() && !quit_) {
    if (state_.loader().busy()) frames_owed = progress_frame_due() ? kSettleFrames : 0;  // then the result
    if (frames_owed > 0) {
      render_frame();
      present();
      --frames_owed;
    }
    const Comparison* compared = state_.comparison();
    const bool background =
        state_.loader().busy() || session().background_busy() || (compared && compared->computing());
    const double wait = state_.loader().busy() ? kLoadingFrameSeconds
                        : background           ? kBusyWaitSeconds
                                               : kIdleWaitSeconds;
    if (window_.wait_events(wait)) {
      frames_owed = kSettleFrames;
    }
    // The chart's worker posts an empty event when a frame is ready, the analysis worker when a
    // result lands (no input marks either): draw them without waiting for the mouse.
    if (timeline_.layer().frame_waiting() || timeline_b_.layer().frame_waiting())
      frames_owed = std::max(frames_owed, 1);
    if (compared && compared->result_waiting()) frames_owed = std::max(frames_owed, 2);
    if (session().result_waiting()) frames_owed = std::max(frames_owed, 2);
  }
  return 0;
}

}  // namespace snapscope
