#include "app/panels/sql_console_panel.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstring>
#include <exception>

#include "app/widgets/theme.h"
#include "core/sql/example_queries.h"
#include "core/util/format.h"

namespace snapscope {
namespace {

constexpr float kEditorLines = 4.5f;

}  // namespace

void SqlConsolePanel::open(const std::string& db_path) {
  console_.reset();
  result_.reset();
  error_.clear();
  if (db_path.empty()) return;
  try {
    console_ = std::make_unique<SqlConsole>(db_path);
  } catch (const std::exception& error) {
    error_ = error.what();
  }
}

void SqlConsolePanel::set_text(const std::string& text) {
  const size_t length = std::min(text.size(), text_.size() - 1);
  std::memcpy(text_.data(), text.data(), length);
  text_[length] = '\0';
}

void SqlConsolePanel::run() {
  if (console_ && console_->start(text_.data())) result_.reset();
}

void SqlConsolePanel::draw() {
  if (!error_.empty()) {
    ImGui::TextColored(theme::kErrorText, "%s", error_.c_str());
    return;
  }
  if (!console_) {
    ImGui::TextDisabled("open a snapshot to query its elements.db");
    return;
  }
  if (auto finished = console_->take_result()) {
    result_ = std::move(finished);
    sorted_dirty_ = true;
  }
  draw_toolbar();
  draw_editor();
  draw_status();
  draw_table();
}

void SqlConsolePanel::draw_toolbar() {
  ImGui::SetNextItemWidth(260);
  if (ImGui::BeginCombo("##examples", "Example queries")) {
    for (const ExampleQuery& example : example_queries()) {
      if (ImGui::Selectable(example.title)) {
        set_text(example.sql);
        run();
      }
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(260);
  const auto& entries = console_->history().entries();
  if (ImGui::BeginCombo("##history", "History", ImGuiComboFlags_HeightLarge)) {
    for (auto entry = entries.rbegin(); entry != entries.rend(); ++entry) {
      if (ImGui::Selectable(entry->c_str())) set_text(*entry);
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::BeginDisabled(console_->busy());
  if (ImGui::Button("Run (Ctrl+Enter)")) run();
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(!console_->busy());
  if (ImGui::Button("Cancel")) console_->cancel();
  ImGui::EndDisabled();
}

void SqlConsolePanel::draw_editor() {
  if (focus_input_) {
    ImGui::SetKeyboardFocusHere();
    focus_input_ = false;
  }
  const float height = ImGui::GetTextLineHeight() * kEditorLines;
  // While active the widget owns the text: history replaces it from inside the callback.
  const auto replace_text = [](ImGuiInputTextCallbackData* data) {
    auto* self = static_cast<SqlConsolePanel*>(data->UserData);
    if (!self->browsed_) return 0;
    data->DeleteChars(0, data->BufTextLen);
    data->InsertChars(0, self->browsed_->c_str());
    self->browsed_.reset();
    return 0;
  };
  // Ctrl+Enter ends the edit (ImGui's multiline rule) and, with EnterReturnsTrue, reports it.
  if (ImGui::InputTextMultiline("##sql", text_.data(), text_.size(), ImVec2(-1, height),
                                ImGuiInputTextFlags_CallbackAlways | ImGuiInputTextFlags_EnterReturnsTrue,
                                replace_text, this)) {
    run();
  }
  if (!ImGui::IsItemActive()) return;
  const ImGuiIO& io = ImGui::GetIO();
  if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_UP)) browsed_ = console_->history().older();
  if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_DOWN)) browsed_ = console_->history().newer();
}

void SqlConsolePanel::draw_status() const {
  if (console_->busy()) {
    ImGui::TextDisabled("running... (Cancel stops it)");
    return;
  }
  if (!result_) {
    ImGui::TextDisabled("read-only: queries cannot change elements.db. Ctrl+Up/Down: history");
    return;
  }
  if (result_->cancelled) {
    ImGui::TextColored(theme::kErrorText, "cancelled after %.0f ms", result_->elapsed_ms);
  } else if (!result_->error.empty()) {
    ImGui::TextColored(theme::kErrorText, "%s", result_->error.c_str());
  } else if (result_->more_rows() > 0) {
    ImGui::Text("%s rows shown, %s more rows... (%.1f ms)", format_grouped(result_->rows.size()).c_str(),
                format_grouped(result_->more_rows()).c_str(), result_->elapsed_ms);
  } else {
    ImGui::Text("%s rows (%.1f ms)", format_grouped(result_->rows.size()).c_str(), result_->elapsed_ms);
  }
}

void SqlConsolePanel::draw_table() {
  if (!result_ || result_->columns.empty()) return;
  const int columns =
      static_cast<int>(std::min<size_t>(result_->columns.size(), 64));  // ImGui's column limit
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_Resizable | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_Borders | ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY;
  if (!ImGui::BeginTable("sql-result", columns, flags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  for (int c = 0; c < columns; ++c) ImGui::TableSetupColumn(result_->columns[static_cast<size_t>(c)].c_str());
  ImGui::TableHeadersRow();
  if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs();
      specs && (specs->SpecsDirty || sorted_dirty_)) {
    if (specs->SpecsCount > 0) {
      const ImGuiTableColumnSortSpecs& spec = specs->Specs[0];
      sort_rows(*result_, static_cast<size_t>(spec.ColumnIndex),
                spec.SortDirection == ImGuiSortDirection_Ascending);
    }
    specs->SpecsDirty = false;
    sorted_dirty_ = false;
  }
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(result_->rows.size()));
  while (clipper.Step()) {
    for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
      ImGui::TableNextRow();
      const auto& row = result_->rows[static_cast<size_t>(r)];
      for (int c = 0; c < columns; ++c) {
        ImGui::TableSetColumnIndex(c);
        ImGui::TextUnformatted(sql_value_text(row[static_cast<size_t>(c)]).c_str());
      }
    }
  }
  ImGui::EndTable();
}

nlohmann::json SqlConsolePanel::json() const {
  if (!result_) return {{"running", console_ && console_->busy()}};
  return {{"running", console_->busy()},  {"columns", result_->columns},
          {"rows", result_->rows.size()}, {"total_rows", result_->total_rows},
          {"error", result_->error},      {"cancelled", result_->cancelled}};
}

}  // namespace snapscope
