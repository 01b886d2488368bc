// Session: the chart's device and timeline, the view, the selection and what is read for it.
#include <algorithm>
#include <exception>

#include "core/session/session.h"

#include "core/cursor/allocation_search.h"
#include "core/view/stack_format.h"

namespace snapscope {

const DeviceDocument* Session::device() const {
  return document_ ? document_->find_device(settings.device) : nullptr;
}

const Timeline* Session::timeline() const {
  const DeviceDocument* current = device();
  return current ? &current->timeline(settings.kind) : nullptr;
}

void Session::forget_view_state() {
  location_.reset();
  highlights.clear();
  site_coloring_.reset();
  select(std::nullopt);
  fit_view();
}

void Session::select_device(int device) {
  if (device == settings.device || !document_ || !document_->find_device(device)) return;
  // The analysis worker reads the old device's timeline: nothing may run on it once it changes.
  analysis_worker_.wait_idle();
  analysis_requested_.reset();
  settings.device = device;
  forget_view_state();
  place_opening_cursor();
  start_allocator_history();
}

void Session::select_kind(TimelineKind kind) {
  if (kind == settings.kind) return;
  const Timeline* before = timeline();
  settings.kind = kind;
  if (before && timeline()) cursor.remap(*before, *timeline());  // same moment, other timeline
  forget_view_state();
}

void Session::show_private_pools(bool shown) {
  if (shown) select_kind(TimelineKind::Blocks);
  if (settings.private_pools == shown) return;
  settings.private_pools = shown;
  fit_view(settings.y_fit.at_least);
}

void Session::cursor_to_peak() {
  const Timeline* shown = timeline();
  if (shown == nullptr) return;
  if (const SessionPools* pools = pools_shown()) {
    cursor.place(*shown, pools->layout->peak_state());
  } else {
    cursor.peak(*shown);
  }
}

void Session::place_opening_cursor() {
  cursor.clear();
  if (settings.cursor_at_peak) cursor_to_peak();
}

void Session::fit_view(uint64_t at_least_bytes) {
  const Timeline* shown = timeline();
  const double steps = shown ? static_cast<double>(shown->timesteps()) : 1.0;
  // A little headroom above the peak so the top allocation is not glued to the frame.
  const SessionPools* pools = pools_shown();
  const uint64_t shown_peak = pools ? pools->layout->peak_bytes() : shown ? shown->peak_bytes() : 0;
  const uint64_t highest = std::max<uint64_t>({shown_peak, at_least_bytes, 1});
  const double top = shown ? static_cast<double>(highest) * 1.05 : 1.0;
  view.set_bounds({0, std::max(steps, 1.0), 0, top});
  view.fit();
}

std::shared_ptr<const TimeWarp> Session::time_warp(const Timeline& timeline) {
  for (const auto& [built_for, warp] : time_warps_) {
    if (built_for == &timeline) return warp;
  }
  std::rotate(time_warps_.begin(), time_warps_.begin() + 1, time_warps_.end());  // the older goes last
  time_warps_.back() = {&timeline, TimeWarp::build(timeline)};
  return time_warps_.back().second;
}

bool Session::sync_time_axis() {
  const Timeline* shown = settings.time_axis ? timeline() : nullptr;
  std::shared_ptr<const TimeWarp> wanted = shown != nullptr ? time_warp(*shown) : nullptr;
  if (wanted == view.warp()) return false;
  view.set_warp(std::move(wanted));
  return true;
}

void Session::select(std::optional<uint32_t> elem) {
  selected_ = elem;
  details_.reset();
  if (!elem || !elements_db_) return;
  try {
    details_ = read_allocation_details(*elements_db_, settings.device, settings.kind, *elem);
  } catch (const std::exception& failure) {
    error_ = failure.what();
  }
}

std::optional<uint32_t> Session::find_by_address(uint64_t address) const {
  const Timeline* shown = timeline();
  if (!shown) return std::nullopt;
  for (uint32_t elem = 0; elem < shown->element_count(); ++elem) {
    if (shown->element(elem).addr == address && shown->ever_live(elem)) return elem;
  }
  return std::nullopt;
}

std::vector<uint32_t> Session::elements_with_metadata(std::string_view text) const {
  const Timeline* shown = timeline();
  if (shown == nullptr || elements_db_ == nullptr || settings.kind != TimelineKind::Blocks) return {};
  std::vector<uint32_t> found =
      elements_allocated_by(*shown, elements_db_->events_with_metadata(device()->device, text));
  const std::vector<uint32_t> noted =
      elements_live_at(*shown, elements_db_->notes_with_metadata(device()->device, text));
  found.insert(found.end(), noted.begin(), noted.end());
  return in_allocation_order(*shown, found);
}

const SiteColoring& Session::site_coloring() {
  if (!site_coloring_) {
    site_coloring_.emplace();
    const Timeline* shown = timeline();
    if (shown && elements_db_) {
      try {
        site_coloring_ = color_by_site(*elements_db_, shown->input());
      } catch (const std::exception& failure) {
        error_ = failure.what();
      }
    }
  }
  return *site_coloring_;
}

void Session::forget_locations() {
  site_coloring_.reset();
  location_.reset();
}

void Session::zoom_to_selection() {
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

const std::string& Session::location_of(uint32_t elem) {
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

const std::vector<AllocatorSetting>* Session::allocator_settings() {
  if (!elements_db_) return nullptr;
  if (!allocator_settings_) {
    try {
      allocator_settings_ = describe_allocator_settings(elements_db_->allocator_settings());
    } catch (const std::exception& failure) {
      allocator_settings_.emplace();  // shown as "not recorded"; the session's error says why
      error_ = std::string("allocator settings unreadable: ") + failure.what();
    }
  }
  return &*allocator_settings_;
}

}  // namespace snapscope
