#include "app/export_dialog.h"

#include <imgui.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <stdexcept>

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

void ExportDialog::open(const Session& session) {
  if (session.document() == nullptr || session.device() == nullptr) return;
  open_requested_ = true;
  const std::string path = default_path(session);
  std::snprintf(path_, sizeof path_, "%s", path.c_str());
}

std::string ExportDialog::default_path(const Session& session) const {
  const std::string format = format_names()[size_t(format_index_)];
  const std::string name = snapshot_stem(*session.document()) + "-" + format + extension_of(format);
  // Beside the snapshot, where its other artefacts usually live.
  std::filesystem::path opened = std::filesystem::absolute(session.document()->opened_path);
  if (!opened.has_filename()) opened = opened.parent_path();  // "run.snapscope/"
  std::filesystem::path directory = opened.parent_path();
  if (directory.empty()) directory = std::filesystem::current_path();
  return (directory / name).string();
}

ExportFormat ExportDialog::file_format(const std::string& format) {
  const auto parsed = parse_export_format(format);
  if (!parsed) throw std::runtime_error("export: unknown format '" + format + "'");
  return *parsed;
}

void ExportDialog::run(Session& session, const std::string& format, const std::string& path,
                       const PngWriter& write_png) {
  if (session.document() == nullptr || session.device() == nullptr)
    throw std::runtime_error("export: no snapshot is open");
  if (format != kPng) return session.run_export(file_format(format), path);
  write_png(path);
  session.set_export_message("exported png to " + path);
}

void ExportDialog::start(Session& session, const std::string& format, const std::string& path,
                         const PngWriter& write_png) {
  if (session.export_running()) return;
  if (format == kPng || session.document() == nullptr || session.device() == nullptr)
    return run(session, format, path, write_png);
  session.start_export(file_format(format), path);
}

void ExportDialog::draw(Session& session, const PngWriter& write_png) {
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
        const std::string path = default_path(session);
        std::snprintf(path_, sizeof path_, "%s", path.c_str());
      }
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
  const bool entered = ImGui::InputText("file", path_, sizeof path_, ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::TextDisabled(
      "%s", session.cursor.placed() ? "moment: the time cursor" : "moment: the peak (no cursor placed)");
  if (!session.export_message().empty()) ImGui::TextWrapped("%s", session.export_message().c_str());
  ImGui::BeginDisabled(session.export_running());
  const bool clicked = ImGui::Button(session.export_running() ? "Exporting..." : "Export");
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button("Close") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
    ImGui::CloseCurrentPopup();
  if (entered || clicked) {
    try {
      const std::string& format = names[size_t(format_index_)];
      start(session, format, path_, write_png);
      if (format == kPng) ImGui::CloseCurrentPopup();  // the chart is captured without the dialog
    } catch (const std::exception& error) {
      session.set_export_message(error.what());
    }
  }
  ImGui::EndPopup();
}

}  // namespace snapscope
