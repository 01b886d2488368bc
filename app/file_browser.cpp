#include "app/file_browser.h"

#include <imgui.h>

#include <algorithm>
#include <cstring>
#include <system_error>

#include "app/widgets/theme.h"
#include "core/document/document.h"
#include "core/store/allocations_json/allocations_json.h"

namespace snapscope {
namespace fs = std::filesystem;

namespace {
constexpr const char* kPopup = "Open snapshot";
}

void FileBrowser::open(Purpose purpose) {
  purpose_ = purpose;
  if (directory_.empty()) directory_ = fs::current_path();
  list(directory_);
  open_requested_ = true;
}

void FileBrowser::list(const fs::path& directory) {
  entries_.clear();
  error_.clear();
  std::error_code failure;
  fs::directory_iterator it(directory, fs::directory_options::skip_permission_denied, failure);
  if (failure) {
    error_ = directory.string() + ": " + failure.message();
    return;
  }
  directory_ = directory;
  std::snprintf(typed_path_, sizeof typed_path_, "%s", directory.string().c_str());
  for (const fs::directory_entry& entry : it) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with(".")) continue;
    std::error_code ignored;
    const bool is_dir = entry.is_directory(ignored);
    if (!is_dir && !is_snapshot_pickle(entry.path())) continue;
    entries_.push_back({name, is_dir, is_dir && !allocations_file_in(entry.path()).empty()});
  }
  std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
    return a.directory != b.directory ? a.directory : a.name < b.name;
  });
}

std::optional<std::string> FileBrowser::draw() {
  if (open_requested_) {
    ImGui::OpenPopup(kPopup);
    open_requested_ = false;
  }
  std::optional<std::string> chosen;
  ImGui::SetNextWindowSize(ImVec2(640, 460), ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal(kPopup, nullptr)) return chosen;
  ImGui::SetNextItemWidth(-80);
  if (ImGui::InputText("##path", typed_path_, sizeof typed_path_, ImGuiInputTextFlags_EnterReturnsTrue)) {
    const fs::path typed = typed_path_;
    if (fs::is_directory(typed) && allocations_file_in(typed).empty()) {
      list(typed);
    } else {
      chosen = typed.string();
    }
  }
  ImGui::SameLine();
  if (ImGui::Button("Up")) list(directory_.parent_path());
  if (!error_.empty()) ImGui::TextColored(theme::kAlertText, "%s", error_.c_str());
  ImGui::BeginChild("entries", ImVec2(0, -32), true);
  for (const Entry& entry : entries_) {
    const std::string label = (entry.directory && !entry.converted ? "[dir] " : "") + entry.name;
    if (ImGui::Selectable(label.c_str(), false, ImGuiSelectableFlags_AllowDoubleClick) &&
        ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
      const fs::path target = directory_ / entry.name;
      if (entry.directory && !entry.converted) {
        list(target);
        break;  // entries_ changed under the loop
      }
      chosen = target.string();
    }
  }
  ImGui::EndChild();
  ImGui::TextDisabled("double-click a .pickle, .pickle.gz or converted directory");
  ImGui::SameLine(ImGui::GetWindowWidth() - 70);
  if (ImGui::Button("Cancel") || chosen) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
  return chosen;
}

}  // namespace snapscope
