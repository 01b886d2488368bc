// memory_viz's event list: one line per raw trace event, virtualised (only visible rows are read
// from elements.db), the focused event highlighted, up/down step the focus, clicks choose one.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/allocator/allocator_history.h"
#include "core/allocator/db_event_source.h"

namespace snapscope {

class EventListPanel {
 public:
  void open(const std::string& db_path, int device);  // empty path: nothing to list
  void set_history(const AllocatorHistory* history) { history_ = history; }
  size_t event_count() const { return source_ ? source_->size() : 0; }

  // Draws the list with `focused` highlighted (scrolled to when it changed elsewhere). Returns the
  // event the user chose (click or up/down) this frame.
  std::optional<int64_t> draw(std::optional<int64_t> focused);

 private:
  const AllocatorEvent& row(size_t index);  // reads the visible window on demand
  std::string line(size_t index);

  std::unique_ptr<DbEventSource> source_;
  std::string error_;
  const AllocatorHistory* history_ = nullptr;
  size_t window_begin_ = 0;
  std::vector<AllocatorEvent> window_;
  std::optional<int64_t> last_focused_;
};

}  // namespace snapscope
