#include "app/export_dialog.h"

#include <imgui.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "core/analysis/db_annotations.h"
#include "core/analysis/db_stack_source.h"
#include "core/analysis/state_mapping.h"
#include "core/export/chart_svg_style.h"
#include "core/export/export.h"

namespace snapscope {

namespace {

constexpr const char* kPopup = "Export";
constexpr std::string_view kPng = "png";

// The dialog's choices: every core export, then the chart image.
std::vector<std::string> format_names() {
  std::vector<std::string> names;
  for (ExportFormat format : export_formats()) names.emplace_back(export_format_name(format));
  names.emplace_back(kPng);
  return names;
}

std::string extension_of(const std::string& format) {
  if (format == kPng) return ".png";
  return std::string(export_format_extension(*parse_export_format(format)));
}

// The export moment: the cursor's state mapped to the block timeline (through its event when
// the segment timeline is shown), else memory_viz's peak.
size_t export_state(const Session& state, const DeviceDocument& device) {
  if (!state.cursor.placed()) return peak_state(device.blocks);
  if (state.settings.kind == TimelineKind::Blocks) return state.cursor.state();
  return state_after_event(device.blocks, event_of_state(device.segments, state.cursor.state()));
}

// svg: the chart as shown, at the chart's pixel size (so the same level of detail).
SvgRequest shown_chart(const Session& state) {
  const DataRect& visible = state.view.visible();
  SvgRequest svg;
  svg.kind = state.settings.kind;
  svg.x0 = visible.x0, svg.x1 = visible.x1, svg.y0 = visible.y0, svg.y1 = visible.y1;
  svg.width = std::max(1, static_cast<int>(state.view.viewport_width()));
  svg.height = std::max(1, static_cast<int>(state.view.viewport_height()));
  svg.time_axis = state.view.warp() != nullptr;
  if (const SessionPools* pools = state.pools_shown()) svg.pools = pools->layout;
  return svg;
}

std::string snapshot_stem(const Document& document) {
  std::filesystem::path path(document.opened_path);
  if (path.filename().empty()) path = path.parent_path();
  std::string name = path.filename().string();
  for (std::string_view suffix : {".gz", ".pickle", ".pkl", ".snapscope"}) {
    if (name.ends_with(suffix)) name.resize(name.size() - suffix.size());
  }
  return name.empty() ? "snapshot" : name;
}

}  // namespace

void ExportDialog::open(const Session& state) {
  if (state.document() == nullptr || state.device() == nullptr) return;
  open_requested_ = true;
  const std::string path = default_path(state);
  std::snprintf(path_, sizeof path_, "%s", path.c_str());
}

std::string ExportDialog::default_path(const Session& state) const {
  const std::string format = format_names()[size_t(format_index_)];
  const std::string name = snapshot_stem(*state.document()) + "-" + format + extension_of(format);
  // Beside the snapshot, where its other artefacts usually live.
  std::filesystem::path opened = std::filesystem::absolute(state.document()->opened_path);
  if (!opened.has_filename()) opened = opened.parent_path();  // "run.snapscope/"
  std::filesystem::path directory = opened.parent_path();
  if (directory.empty()) directory = std::filesystem::current_path();
  return (directory / name).string();
}

void ExportDialog::load_document_inputs(const Session& state) {
  if (loaded_for_ == state.document()) return;
  const std::string db = state.document()->elements_db().string();
  stacks_ = std::make_unique<DbStackSource>(db);
  annotations_ = read_db_annotations(db);
  loaded_for_ = state.document();
}

std::function<void()> ExportDialog::prepare(Session& state, const std::string& format,
                                            const std::string& path) {
  const DeviceDocument* device = state.device();
  const auto parsed = parse_export_format(format);
  if (!parsed) throw std::runtime_error("export: unknown format '" + format + "'");
  load_document_inputs(state);
  ExportInput input;
  input.file = state.document()->opened_path;
  input.device = device->device;
  input.blocks = &device->blocks;
  input.segments = &device->segments;
  input.reserved = &device->reserved;
  input.stacks = stacks_.get();
  input.annotations = annotations_;
  ExportRequest request;
  request.format = *parsed;
  request.state = export_state(state, *device);
  request.svg = shown_chart(state);
  request.svg_style = chart_svg_style();
  // The categories the viewer shows (its rules included), when they are of the blocks timeline.
  if (const auto categories = state.categories_handle();
      categories && categories->timeline == &device->blocks) {
    request.categories = std::shared_ptr<const Classification>(categories, &categories->classification);
  }
  return [input = std::move(input), request = std::move(request), path] {
    export_to_file(input, request, path);
  };
}

void ExportDialog::run(Session& state, const std::string& format, const std::string& path,
                       const PngWriter& write_png) {
  wait();
  if (state.document() == nullptr || state.device() == nullptr)
    throw std::runtime_error("export: no snapshot is open");
  if (format == kPng) {
    write_png(path);
  } else {
    prepare(state, format, path)();
  }
  message_ = "exported " + format + " to " + path;
}

void ExportDialog::start(Session& state, const std::string& format, const std::string& path,
                         const PngWriter& write_png) {
  if (busy()) return;
  if (format == kPng || state.document() == nullptr || state.device() == nullptr) {
    run(state, format, path, write_png);
    return;
  }
  std::function<void()> write = prepare(state, format, path);
  running_path_ = path;
  message_ = "exporting " + format + " to " + path + "...";
  running_ = std::async(std::launch::async, [write = std::move(write), format, path] {
    write();
    return "exported " + format + " to " + path;
  });
}

bool ExportDialog::finished() const {
  return running_.valid() && running_.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

void ExportDialog::poll() {
  if (!finished()) return;
  try {
    message_ = running_.get();
  } catch (const std::exception& error) {
    message_ = error.what();
  }
}

void ExportDialog::wait() {
  if (!running_.valid()) return;
  running_.wait();
  poll();
}

void ExportDialog::draw(Session& state, const PngWriter& write_png) {
  if (open_requested_) {
    ImGui::OpenPopup(kPopup);
    open_requested_ = false;
  }
  ImGui::SetNextWindowSize(ImVec2(640, 0), ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal(kPopup, nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
  const std::vector<std::string> names = format_names();
  if (ImGui::BeginCombo("format", names[size_t(format_index_)].c_str())) {
    for (size_t i = 0; i < names.size(); ++i) {
      if (ImGui::Selectable(names[i].c_str(), int(i) == format_index_)) {
        format_index_ = int(i);
        const std::string path = default_path(state);
        std::snprintf(path_, sizeof path_, "%s", path.c_str());
      }
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
  const bool entered = ImGui::InputText("file", path_, sizeof path_, ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::TextDisabled(
      "%s", state.cursor.placed() ? "moment: the time cursor" : "moment: the peak (no cursor placed)");
  if (!message_.empty()) ImGui::TextWrapped("%s", message_.c_str());
  ImGui::BeginDisabled(busy());
  const bool clicked = ImGui::Button(busy() ? "Exporting..." : "Export");
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button("Close") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
    ImGui::CloseCurrentPopup();
  if (entered || clicked) {
    try {
      const std::string& format = names[size_t(format_index_)];
      start(state, format, path_, write_png);
      if (format == kPng) ImGui::CloseCurrentPopup();  // the chart is captured without the dialog
    } catch (const std::exception& error) {
      message_ = error.what();
    }
  }
  ImGui::EndPopup();
}

}  // namespace snapscope
