#include "app/panels/inspector_panel.h"

#include <imgui.h>

#include <string>

#include "app/panels/database_wait.h"
#include "app/widgets/location_text.h"
#include "core/analysis/frame_kind.h"
#include "core/util/format.h"
#include "core/view/stack_format.h"
#include "core/view/timeline_axis.h"

namespace snapscope {
namespace {

void field(const char* name, const std::string& value) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextDisabled("%s", name);
  ImGui::TableNextColumn();
  ImGui::TextWrapped("%s", value.c_str());
}

// "event 812  (+1.25 s)": the event number as everywhere else, the time since the first event.
std::string event_text(const std::optional<int64_t>& event, const std::optional<int64_t>& time_us,
                       std::optional<int64_t> first_time_us, const char* missing) {
  if (!event) return missing;
  std::string text = "event #" + std::to_string(*event);
  if (time_us && first_time_us)
    text += "  (+" + format_duration_us(static_cast<double>(*time_us - *first_time_us)) + ")";
  return text;
}

void draw_fields(const AllocationDetails& details, std::optional<int64_t> first_time,
                 const std::string& category) {
  if (!ImGui::BeginTable("fields", 2)) return;
  ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthFixed, 96);
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
  const double size = static_cast<double>(details.size);
  field("size", format_bytes(size) + "  (" + format_bytes_exact(details.size) + ")");
  if (details.requested_size) field("requested", format_bytes_exact(*details.requested_size));
  field("address", format_address(details.address));
  field("device", std::to_string(details.device));
  field("stream", std::to_string(details.stream));
  field("allocated", event_text(details.alloc_event, details.alloc_time_us, first_time, "before the trace"));
  field("freed", event_text(details.free_event, details.free_time_us, first_time, "never"));
  std::string lifetime = "-";
  if (details.lifetime_events()) lifetime = std::to_string(*details.lifetime_events()) + " events";
  if (details.lifetime_us())
    lifetime += ", " + format_duration_us(static_cast<double>(*details.lifetime_us()));
  field("lifetime", lifetime);
  field("total then", format_bytes(static_cast<double>(details.total_after_alloc)));
  field("origin", details.origin);
  field("category", category.empty() ? std::string("(classifying...)") : category);
  if (!details.frames.empty()) {
    const FrameText& where = details.frames[first_user_frame(details.frames)];
    field("location", stack_location(details.frames, details.forward_stack));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", frame_line(where).c_str());
  }
  if (!details.compile_context.empty()) field("compile ctx", details.compile_context);
  if (!details.user_metadata.empty()) field("user metadata", details.user_metadata);
  if (details.pool_id) {
    field("pool", pool_text(*details.pool_id) + (details.pool_from_segment ? " (its segment's)" : ""));
  }
  // Annotations made after the allocation (torch.cuda.memory._annotate_memory), oldest first.
  for (const MemoryNote& note : details.notes) {
    field("note", note.metadata.empty() ? std::string("(no metadata)") : note.metadata);
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("annotated at %s%s%s", event_text(note.event, note.time_us, first_time, "").c_str(),
                        note.location.empty() ? "" : "\nby ", note.location.c_str());
    }
  }
  ImGui::EndTable();
}

// One stack line: a frame's location fits the pane (directories elided, the whole line in a
// tooltip); FX node lines below a frame wrap as they are.
void stack_line_text(const std::string& line) {
  if (line.find('\n') == std::string::npos) {
    location_text(line);
  } else {
    ImGui::TextUnformatted(line.c_str());
  }
}

}  // namespace

void draw_inspector(Session& session) {
  ImGui::TextUnformatted(session.settings.kind == TimelineKind::Blocks ? "Allocation" : "Segment");
  ImGui::Separator();
  const auto& details = session.details();
  if (!details) {
    if (session.selected() && session.database_writing()) {
      draw_database_wait(session);
    } else {
      ImGui::TextDisabled(session.selected() ? "details unavailable" : "click an allocation to inspect it");
    }
    return;
  }
  if (ImGui::Button("Copy"))
    ImGui::SetClipboardText(details_to_text(*details, session.settings.show_all_frames).c_str());
  ImGui::SameLine();
  if (ImGui::Button("Zoom to allocation")) session.zoom_to_selection();
  ImGui::SameLine();
  if (ImGui::Button("Clear")) {
    session.select(std::nullopt);
    return;
  }
  draw_fields(*details, session.timeline() ? first_time_us(*session.timeline()) : std::nullopt,
              session.selected() ? session.category_reason(*session.selected()) : std::string());
  ImGui::Separator();
  ImGui::Checkbox("show all frames", &session.settings.show_all_frames);
  ImGui::BeginChild("stack", ImVec2(0, 0), true);
  if (details->frames.empty()) ImGui::TextDisabled("<no stack recorded>");
  for (const std::string& line : stack_lines(details->frames, session.settings.show_all_frames))
    stack_line_text(line);
  if (!details->forward_stack.empty()) {
    ImGui::Separator();
    ImGui::TextDisabled("forward op's stack");
    for (const std::string& line : stack_lines(details->forward_stack, session.settings.show_all_frames))
      stack_line_text(line);
  }
  ImGui::EndChild();
}

}  // namespace snapscope
