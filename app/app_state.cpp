#include "app/app_state.h"

#include <fstream>

#include <algorithm>
#include <exception>

#include "core/analysis/frame_kind.h"
#include "core/analysis/trace_overflow.h"
#include "core/view/app_dirs.h"
#include "core/view/stack_format.h"

namespace snapscope {

namespace {

std::filesystem::path wrapper_list_file() { return config_root() / "wrapper-libraries.txt"; }

}  // namespace

AppState::AppState() : recent_(config_root() / "recent-files.txt") {
  recent_.load();
  std::ifstream in(wrapper_list_file());
  std::string line;
  if (in && std::getline(in, line)) snapscope::set_wrapper_libraries(split_packages(line));
}

void AppState::set_wrapper_libraries(std::vector<std::string> packages) {
  std::error_code ignored;
  std::filesystem::create_directories(wrapper_list_file().parent_path(), ignored);
  std::ofstream(wrapper_list_file()) << join_packages(packages) << '\n';
  snapscope::set_wrapper_libraries(std::move(packages));
  site_coloring_.reset();
}

void AppState::open(const std::string& path) {
  if (!loader_.start(path)) error_ = "still loading " + loader_.path() + "; try again when it is done";
}

bool AppState::poll_loader(const std::function<void()>& before_replace) {
  auto result = loader_.take_result();
  if (!result) return false;
  if (!result->document) {
    error_ = result->error;  // the previous document (if any) stays open and usable
    return false;
  }
  if (before_replace) before_replace();
  install(std::move(result->document));
  return true;
}

void AppState::install(std::unique_ptr<Document> document) {
  error_.clear();
  warning_.clear();
  elements_db_.reset();
  try {
    elements_db_ = std::make_unique<ElementsDbReader>(document->elements_db().string());
    warning_ = trace_overflow_warning_in_db(document->elements_db().string()).value_or("");
  } catch (const std::exception& failure) {
    error_ = std::string("details unavailable: ") + failure.what();
  }
  recent_.add(document->opened_path);
  recent_.save();
  document_ = std::move(document);
  selected_.reset();
  location_.reset();
  details_.reset();
  site_coloring_.reset();
  hovered.reset();
  cursor.clear();
  highlights.clear();
  if (!document_->find_device(settings.device) && !document_->devices.empty()) {
    settings.device = document_->devices.front().device;
  }
  fit_view();
}

const DeviceDocument* AppState::device() const {
  return document_ ? document_->find_device(settings.device) : nullptr;
}

const Timeline* AppState::timeline() const {
  const DeviceDocument* current = device();
  return current ? &current->timeline(settings.kind) : nullptr;
}

void AppState::select_device(int device) {
  if (device == settings.device || !document_ || !document_->find_device(device)) return;
  settings.device = device;
  location_.reset();
  cursor.clear();
  highlights.clear();
  site_coloring_.reset();
  select(std::nullopt);
  fit_view();
}

void AppState::select_kind(TimelineKind kind) {
  if (kind == settings.kind) return;
  const Timeline* before = timeline();
  settings.kind = kind;
  location_.reset();
  if (before && timeline()) cursor.remap(*before, *timeline());  // same moment, other timeline
  highlights.clear();
  site_coloring_.reset();
  select(std::nullopt);
  fit_view();
}

void AppState::fit_view() {
  const Timeline* shown = timeline();
  const double steps = shown ? static_cast<double>(shown->timesteps()) : 1.0;
  // A little headroom above the peak so the top allocation is not glued to the frame.
  const double top = shown ? static_cast<double>(std::max<uint64_t>(shown->peak_bytes(), 1)) * 1.05 : 1.0;
  view.set_bounds({0, std::max(steps, 1.0), 0, top});
  view.fit();
}

void AppState::select(std::optional<uint32_t> elem) {
  selected_ = elem;
  details_.reset();
  if (!elem || !elements_db_) return;
  try {
    details_ = read_allocation_details(*elements_db_, settings.device, settings.kind, *elem);
  } catch (const std::exception& failure) {
    error_ = failure.what();
  }
}

std::optional<uint32_t> AppState::find_by_address(uint64_t address) const {
  const Timeline* shown = timeline();
  if (!shown) return std::nullopt;
  for (uint32_t elem = 0; elem < shown->element_count(); ++elem) {
    if (shown->element(elem).addr == address && shown->ever_live(elem)) return elem;
  }
  return std::nullopt;
}

const SiteColoring& AppState::site_coloring() {
  if (!site_coloring_) {
    site_coloring_.emplace();
    const Timeline* shown = timeline();
    if (shown && elements_db_) {
      try {
        site_coloring_ = color_by_site(*elements_db_, settings.device, settings.kind, shown->element_count());
      } catch (const std::exception& failure) {
        error_ = failure.what();
      }
    }
  }
  return *site_coloring_;
}

void AppState::zoom_to_selection() {
  const Timeline* shown = timeline();
  if (!shown || !selected_) return;
  const uint32_t elem = *selected_;
  if (!shown->ever_live(elem)) return;
  // The extent of memory_viz's polygon without walking it: from the step it is allocated in to
  // the free's first step (or the end); frees below it only slide it down, so it is highest when
  // allocated and lowest in its last live state. O(checkpoint interval), whatever the lifetime.
  const size_t first = shown->alloc_state(elem), freed_at = shown->free_state(elem);
  const bool freed = freed_at != shown->never_freed();
  const size_t last = freed ? freed_at - 1 : shown->action_count();
  const double x0 = first == 0 ? 0.0 : static_cast<double>(shown->step_begin(first - 1));
  const double x1 = static_cast<double>(freed ? shown->step_begin(last) + 1 : shown->timesteps());
  const double margin = std::max(2.0, (x1 - x0) * 0.05);
  const auto size = static_cast<double>(shown->element(elem).size);
  settings.y_fit.enabled = false;
  view.set_visible(frame_bytes({x0 - margin, x1 + margin, 0, 1},
                               static_cast<double>(shown->offset_of(elem, last)),
                               static_cast<double>(shown->offset_of(elem, first)) + size));
}

const std::string& AppState::location_of(uint32_t elem) {
  if (location_ && location_->first == elem) return location_->second;
  location_.emplace(elem, std::string());
  if (!elements_db_) return location_->second;
  try {
    const AllocationDetails found =
        read_allocation_details(*elements_db_, settings.device, settings.kind, elem);
    const size_t frame = first_user_frame(found.frames);
    location_->second = frame < found.frames.size() ? frame_line(found.frames[frame]) : "<no stack>";
  } catch (const std::exception& failure) {
    location_->second = failure.what();
  }
  return location_->second;
}

}  // namespace snapscope
