#include "app/panels/event_list_panel.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <exception>

#include "app/widgets/theme.h"
#include "core/allocator/event_text.h"

namespace snapscope {
namespace {

constexpr size_t kWindowRows = 512;  // rows read from the database at once around the visible ones

}  // namespace

void EventListPanel::open(const std::string& db_path, int device) {
  source_.reset();
  error_.clear();
  history_ = nullptr;
  window_.clear();
  last_focused_.reset();
  if (db_path.empty()) return;
  try {
    source_ = std::make_unique<DbEventSource>(db_path, device);
  } catch (const std::exception& error) {
    error_ = error.what();
  }
}

const AllocatorEvent& EventListPanel::row(size_t index) {
  if (index < window_begin_ || index >= window_begin_ + window_.size()) {
    window_begin_ = index >= kWindowRows / 2 ? index - kWindowRows / 2 : 0;
    source_->read(window_begin_, window_begin_ + kWindowRows, window_);
  }
  return window_[index - window_begin_];
}

std::string EventListPanel::line(size_t index) {
  const AllocatorEvent& event = row(index);
  const uint64_t stream = history_ != nullptr ? history_->stream_name(event.stream) : event.stream;
  return std::to_string(index) + "  " + format_event_line(event, stream);
}

std::optional<int64_t> EventListPanel::draw(std::optional<int64_t> focused) {
  if (!error_.empty()) {
    ImGui::TextColored(theme::kAlertText, "%s", error_.c_str());
    return std::nullopt;
  }
  if (!source_ || source_->size() == 0) {
    ImGui::TextDisabled("no trace events on this device");
    return std::nullopt;
  }
  std::optional<int64_t> chosen;
  const bool moved_elsewhere = focused != last_focused_;
  ImGui::TextDisabled("%zu events. Up/Down step the time cursor through them.", source_->size());
  ImGui::BeginChild("event-rows", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  const float row_height = ImGui::GetTextLineHeightWithSpacing();
  if (moved_elsewhere && focused && *focused >= 0) {
    const float y = static_cast<float>(*focused) * row_height;
    if (y < ImGui::GetScrollY() || y > ImGui::GetScrollY() + ImGui::GetWindowHeight() - 2 * row_height)
      ImGui::SetScrollY(y - ImGui::GetWindowHeight() / 2);
  }
  if (ImGui::IsWindowFocused() && !ImGui::GetIO().WantTextInput) {
    const int64_t from = focused.value_or(-1);
    if (ImGui::IsKeyPressed(GLFW_KEY_DOWN)) chosen = from + 1;
    if (ImGui::IsKeyPressed(GLFW_KEY_UP)) chosen = from - 1;
  }
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(source_->size()), row_height);
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const auto index = static_cast<size_t>(i);
      const std::string text = line(index);
      const bool oom = row(index).action == Action::Oom;
      if (oom) ImGui::PushStyleColor(ImGuiCol_Text, theme::kAlertText);
      ImGui::PushID(i);
      if (ImGui::Selectable(text.c_str(), focused && *focused == i)) chosen = i;
      ImGui::PopID();
      if (oom) ImGui::PopStyleColor();
    }
  }
  ImGui::EndChild();
  last_focused_ = focused;
  return chosen;
}

}  // namespace snapscope
