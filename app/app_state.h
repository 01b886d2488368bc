// What the viewer is showing: the open document (or the one loading), the chosen device and
// timeline, the view rectangle, the selection and the inspector's details. Panels read and
// change it; only the frame loop owns it.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/cursor/element_marks.h"
#include "core/cursor/time_cursor.h"
#include "core/view/allocation_details.h"
#include "core/view/document_loader.h"
#include "core/view/recent_files.h"
#include "core/view/site_colors.h"
#include "core/view/view_transform.h"

namespace snapscope {

struct ChartSettings {
  int device = -1;
  TimelineKind kind = TimelineKind::Blocks;
  bool color_by_site = false;
  bool time_axis = false;  // label x with wall-clock time instead of event index
  bool show_all_frames = false;
};

class AppState {
 public:
  AppState();

  // Document lifecycle.
  void open(const std::string& path);  // starts a background load
  // Installs a finished load; true when a new document arrived this call. before_replace runs
  // first (stop background readers of the old document).
  bool poll_loader(const std::function<void()>& before_replace = {});
  const Document* document() const { return document_.get(); }
  const DocumentLoader& loader() const { return loader_; }
  const std::string& error() const { return error_; }
  // A caveat about the whole document (the allocator trace overflowed), shown in the status bar.
  const std::string& warning() const { return warning_; }
  void clear_error() { error_.clear(); }
  RecentFiles& recent() { return recent_; }

  // The chart being shown.
  ChartSettings settings;
  ViewTransform view;
  const DeviceDocument* device() const;
  const Timeline* timeline() const;
  void select_device(int device);
  void select_kind(TimelineKind kind);
  void fit_view();  // bounds = the timeline's extent, view = all of it

  // Selection and hover (element indices in the current timeline).
  std::optional<uint32_t> hovered;
  const std::optional<uint32_t>& selected() const { return selected_; }
  void select(std::optional<uint32_t> elem);  // fills details() from elements.db
  const std::optional<AllocationDetails>& details() const { return details_; }
  std::optional<uint32_t> find_by_address(uint64_t address) const;
  void zoom_to_selection();

  // The time cursor every analysis panel follows (a state of timeline()), and element highlights.
  TimeCursor cursor;
  ElementHighlights highlights;

  // Allocation sites of the current timeline, computed on first use (one elements.db pass).
  const SiteColoring& site_coloring();

 private:
  void install(std::unique_ptr<Document> document);

  std::unique_ptr<Document> document_;
  std::unique_ptr<ElementsDbReader> elements_db_;
  DocumentLoader loader_;
  RecentFiles recent_;
  std::string error_;
  std::string warning_;
  std::optional<uint32_t> selected_;
  std::optional<AllocationDetails> details_;
  std::optional<SiteColoring> site_coloring_;
};

}  // namespace snapscope
