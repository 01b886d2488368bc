#include "app/menu_bar.h"

#include <imgui.h>

#include <cctype>
#include <cstdio>
#include <exception>
#include <string>

#include "app/chart/cursor_controls.h"
#include "app/widgets/theme.h"
#include "core/analysis/frame_kind.h"
#include "core/classify/category_rules.h"
#include "core/snapshot/model.h"
#include "core/util/format.h"

namespace snapscope {
namespace {

void draw_file_menu(AppState& app, FileBrowser& browser, MenuActions& actions) {
  if (!ImGui::BeginMenu("File")) return;
  if (ImGui::MenuItem("Open...", "Ctrl+O")) browser.open();
  if (ImGui::BeginMenu("Open Recent", !app.recent().entries().empty())) {
    std::string chosen;
    for (const std::string& path : app.recent().entries()) {
      if (ImGui::MenuItem(path.c_str())) chosen = path;
    }
    ImGui::EndMenu();
    if (!chosen.empty()) app.open(chosen);
  }
  ImGui::Separator();
  // Run B of a comparison: its curves over the open file's chart, and the Compare tab.
  const bool open_file = app.session().device() != nullptr;
  if (ImGui::MenuItem("Compare with...", nullptr, false, open_file)) actions.compare_requested = true;
  if (ImGui::BeginMenu("Compare with Recent", open_file && !app.recent().entries().empty())) {
    std::string chosen;
    for (const std::string& path : app.recent().entries()) {
      if (ImGui::MenuItem(path.c_str())) chosen = path;
    }
    ImGui::EndMenu();
    if (!chosen.empty()) app.open_compare(chosen);
  }
  if (ImGui::MenuItem("Close Comparison", nullptr, false, app.compare_session() != nullptr))
    actions.compare_closed = true;
  ImGui::Separator();
  // Exports read stacks and annotations from elements.db.
  if (ImGui::MenuItem("Export...", "Ctrl+Shift+E", false,
                      app.session().device() != nullptr && !app.session().database_writing()))
    actions.export_requested = true;
  ImGui::Separator();
  if (ImGui::MenuItem("Quit", "Ctrl+Q")) actions.quit = true;
  ImGui::EndMenu();
}

// Thin wrapper libraries are never a location (core/analysis/frame_kind.h): the caller's line is.
void draw_wrapper_setting(AppState& app, MenuActions& actions) {
  if (!ImGui::BeginMenu("Wrapper libraries")) return;
  static char text[512] = {};
  if (ImGui::IsWindowAppearing()) {
    std::snprintf(text, sizeof text, "%s", join_packages(wrapper_libraries()).c_str());
  }
  ImGui::TextDisabled("Python packages whose frames never name a location (comma-separated)");
  ImGui::SetNextItemWidth(360);
  if (ImGui::InputText("##wrappers", text, sizeof text, ImGuiInputTextFlags_EnterReturnsTrue) ||
      ImGui::IsItemDeactivatedAfterEdit()) {
    app.set_wrapper_libraries(split_packages(text));
    actions.color_changed = true;
  }
  if (ImGui::MenuItem("Reset to defaults")) {
    app.set_wrapper_libraries(default_wrapper_libraries());
    actions.color_changed = true;
  }
  ImGui::EndMenu();
}

// Category rules (docs/RULES.md): a file path, loaded on Enter; errors stay in the menu.
void draw_rules_setting(Session& session) {
  if (!ImGui::BeginMenu("Category rules")) return;
  static char path[1024] = {};
  static std::string message;
  if (ImGui::IsWindowAppearing() && session.category_rules())
    std::snprintf(path, sizeof path, "%s", session.category_rules()->file.c_str());
  ImGui::TextDisabled("A JSON rules file mapping frames, locations or annotations to categories");
  ImGui::SetNextItemWidth(420);
  if (ImGui::InputText("##rules", path, sizeof path, ImGuiInputTextFlags_EnterReturnsTrue)) {
    try {
      session.set_category_rules(load_category_rules(path));
      message = "loaded " + std::to_string(session.category_rules()->rules.size()) + " rules";
    } catch (const std::exception& error) {
      message = error.what();
    }
  }
  if (session.category_rules() && ImGui::MenuItem("Clear rules")) {
    session.set_category_rules(std::nullopt);
    message.clear();
  }
  if (!message.empty()) ImGui::TextWrapped("%s", message.c_str());
  ImGui::EndMenu();
}

// memory_viz's "Allocated Memory (incl. Private Pools)": the active timeline with each private
// pool's envelope. Offered once the device's pools are known, and only when it has some.
void draw_private_pools_item(Session& session) {
  const SessionPools* pools = session.private_pools();
  const char* label = "Include private pools' inactive memory";
  if (session.private_pools_loading()) {
    ImGui::MenuItem(label, "reading pools...", false, false);
    return;
  }
  bool shown = session.settings.private_pools;
  if (ImGui::MenuItem(label, nullptr, &shown, pools != nullptr)) session.show_private_pools(shown);
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip("%s",
                      pools ? "memory_viz's \"Allocated Memory (incl. Private Pools)\": each private pool "
                              "(CUDA graph, MemPool) as one gray block of the most it ever held, its live "
                              "blocks packed inside"
                            : "this device has no private memory pool");
  }
}

void draw_view_menu(AppState& app, MenuActions& actions) {
  Session& session = app.session();
  if (!ImGui::BeginMenu("View")) return;
  if (ImGui::MenuItem("Active Memory Timeline", nullptr, session.settings.kind == TimelineKind::Blocks)) {
    session.select_kind(TimelineKind::Blocks);
  }
  if (ImGui::MenuItem("Active Cached Segment Timeline", nullptr,
                      session.settings.kind == TimelineKind::Segments)) {
    session.select_kind(TimelineKind::Segments);
  }
  draw_private_pools_item(session);
  ImGui::Separator();
  const auto coloring_item = [&](const char* label, ChartColoring coloring) {
    if (ImGui::MenuItem(label, nullptr, session.settings.coloring == coloring)) {
      session.settings.coloring =
          session.settings.coloring == coloring ? ChartColoring::Allocation : coloring;
      actions.color_changed = true;
    }
  };
  coloring_item("Color by allocation site", ChartColoring::Site);
  coloring_item("Color by category", ChartColoring::Category);
  draw_rules_setting(session);
  const bool has_time = session.device() != nullptr && session.device()->has_time;
  ImGui::MenuItem("Wall-clock time axis", nullptr, &session.settings.time_axis, has_time);
  ImGui::MenuItem("Show all stack frames", nullptr, &session.settings.show_all_frames);
  draw_wrapper_setting(app, actions);
  if (ImGui::MenuItem("Fit", "F")) {
    session.view.fit();
    session.settings.y_fit = YFitSettings{.at_least = session.settings.y_fit.at_least};
  }
  ImGui::MenuItem("Fit y to the time range in view", "Y", &session.settings.y_fit.enabled);
  if (ImGui::MenuItem("Raise floor to the lowest total in view", "L", &session.settings.y_fit.raise_floor)) {
    session.settings.y_fit.enabled = true;
  }
  ImGui::EndMenu();
}

// "Device 0", "Host (pinned)".
std::string device_title(int device) {
  std::string title = device_name(device);
  title[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(title[0])));
  return title;
}

void draw_device_selector(Session& session) {
  const Document* document = session.document();
  if (document == nullptr || document->devices.empty()) return;
  ImGui::Separator();
  ImGui::SetNextItemWidth(120);
  const std::string current = device_title(session.settings.device);
  if (ImGui::BeginCombo("##device", current.c_str())) {
    for (const DeviceDocument& device : document->devices) {
      const std::string label = device_title(device.device);
      if (ImGui::Selectable(label.c_str(), device.device == session.settings.device)) {
        session.select_device(device.device);
      }
    }
    ImGui::EndCombo();
  }
}

}  // namespace

MenuActions draw_menu_bar(AppState& app, FileBrowser& browser) {
  MenuActions actions;
  if (!ImGui::BeginMainMenuBar()) return actions;
  draw_file_menu(app, browser, actions);
  draw_view_menu(app, actions);
  draw_device_selector(app.session());
  ImGui::EndMainMenuBar();
  return actions;
}

void draw_status_bar(AppState& app, float y, float width, float height) {
  ImGui::SetNextWindowPos(ImVec2(0, y));
  ImGui::SetNextWindowSize(ImVec2(width, height));
  ImGui::Begin("##status", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
  const DocumentLoader& loader = app.loader();
  if (loader.busy()) {
    const LoadProgress& progress = loader.progress();
    const std::string label = std::string(load_stage_name(progress.stage)) + " " + loader.path();
    ImGui::ProgressBar(progress.fraction, ImVec2(260, 0));
    ImGui::SameLine();
    ImGui::TextUnformatted(label.c_str());
  } else if (!app.error().empty()) {
    ImGui::TextColored(theme::kErrorText, "Error: %s", app.error().c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton("dismiss")) app.clear_error();
  } else if (const Timeline* timeline = app.session().timeline()) {
    const bool segments = app.session().settings.kind == TimelineKind::Segments;
    ImGui::Text("%s | %s | %s | peak %s", app.session().document()->opened_path.c_str(),
                format_count(timeline->element_count(), segments ? "segment" : "allocation").c_str(),
                format_count(timeline->action_count(), "action").c_str(),
                format_bytes(static_cast<double>(timeline->peak_bytes())).c_str());
    if (const SessionPools* pools = app.session().pools_shown()) {
      ImGui::SameLine();
      const size_t count = pools->layout->pool_count();
      ImGui::Text("(%s with %zu private pool%s; gray: inactive pool memory)",
                  format_bytes(static_cast<double>(pools->layout->peak_bytes())).c_str(), count,
                  count == 1 ? "" : "s");
    }
    ImGui::SameLine(0, 24);
    draw_cursor_status(app.session());
    if (app.session().database_writing()) {
      ImGui::SameLine(0, 24);
      ImGui::TextDisabled("writing elements.db %.1f s",
                          app.session().document()->pending_database->seconds_waited());
    }
    if (!app.session().warning().empty()) {
      ImGui::SameLine(0, 24);
      ImGui::TextColored(theme::kWarningText, "Warning: %s", app.session().warning().c_str());
    }
  } else {
    ImGui::TextDisabled("File > Open, drop a snapshot on the window, or pass a path on the command line");
  }
  ImGui::End();
}

}  // namespace snapscope
