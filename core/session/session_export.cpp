// Session's exports (File ▸ Export..., the script's `export`): core/export's formats for the shown
// device, as the panels show it — the moment is the cursor (or the peak), the svg is the chart as
// shown — written on a background result so the window stays live through a multi-GB export.
#include <algorithm>
#include <memory>
#include <stdexcept>

#include "core/analysis/db_annotations.h"
#include "core/analysis/db_stack_source.h"
#include "core/analysis/state_mapping.h"
#include "core/export/chart_svg_style.h"
#include "core/session/session.h"

namespace snapscope {
namespace {

// The export moment: the cursor's state mapped to the block timeline (through its event when
// the segment timeline is shown), else memory_viz's peak.
size_t export_state(const Session& session, const DeviceDocument& device) {
  if (!session.cursor.placed()) return peak_state(device.blocks);
  if (session.settings.kind == TimelineKind::Blocks) return session.cursor.state();
  return state_after_event(device.blocks, event_of_state(device.segments, session.cursor.state()));
}

// svg: the chart as shown, at the chart's pixel size (so the same level of detail).
SvgRequest shown_chart(const Session& session) {
  const DataRect& visible = session.view.visible();
  SvgRequest svg;
  svg.kind = session.settings.kind;
  svg.x0 = visible.x0, svg.x1 = visible.x1, svg.y0 = visible.y0, svg.y1 = visible.y1;
  svg.width = std::max(1, static_cast<int>(session.view.viewport_width()));
  svg.height = std::max(1, static_cast<int>(session.view.viewport_height()));
  svg.time_axis = session.view.warp() != nullptr;
  if (const SessionPools* pools = session.pools_shown()) svg.pools = pools->layout;
  return svg;
}

}  // namespace

ExportRequest Session::export_request(ExportFormat format) const {
  if (document_ == nullptr || device() == nullptr) throw std::runtime_error("export: no snapshot is open");
  const DeviceDocument& shown = *device();
  ExportRequest request;
  request.format = format;
  request.state = export_state(*this, shown);
  request.svg = shown_chart(*this);
  request.svg_style = chart_svg_style();
  // The categories the viewer shows (its rules included), when they are of the blocks timeline.
  if (const auto categories = categories_handle(); categories && categories->timeline == &shown.blocks)
    request.categories = std::shared_ptr<const Classification>(categories, &categories->classification);
  return request;
}

// What the export reads besides the request: the device's timelines (owned by the document,
// which outlives every background result) and elements.db's stacks and annotations, opened by
// the export itself so no reader is shared with another thread.
std::function<std::string()> Session::export_work(ExportFormat format, const std::string& path) const {
  const DeviceDocument& shown = *device();
  return [request = export_request(format), file = document_->opened_path,
          db = document_->elements_db().string(), device = shown.device, blocks = &shown.blocks,
          segments = &shown.segments, reserved = &shown.reserved, path] {
    const DbStackSource stacks(db);
    ExportInput input;
    input.file = file;
    input.device = device;
    input.blocks = blocks;
    input.segments = segments;
    input.reserved = reserved;
    input.stacks = &stacks;
    input.annotations = read_db_annotations(db);
    export_to_file(input, request, path);
    return "exported " + std::string(export_format_name(request.format)) + " to " + path;
  };
}

void Session::run_export(ExportFormat format, const std::string& path) {
  export_.wait();
  export_message_ = export_work(format, path)();
}

void Session::start_export(ExportFormat format, const std::string& path) {
  if (export_.running()) return;
  std::function<std::string()> work = export_work(format, path);
  export_message_ = "exporting " + std::string(export_format_name(format)) + " to " + path + "...";
  export_.start([work = std::move(work)](
                    const std::atomic<bool>&) { return std::make_shared<const std::string>(work()); },
                ready_);
}

}  // namespace snapscope
