// What the viewer has open: the active Session (core/session: one snapshot and everything
// derived from it), the one being opened, the recent files and the wrapper-library list. A load
// that fails leaves the active session as it was; one that succeeds replaces it, and the old
// session's background work is cancelled when it is destroyed.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/document/document_loader.h"
#include "core/session/comparison.h"
#include "core/session/session.h"
#include "core/view/recent_files.h"

namespace snapscope {

class AppState {
 public:
  // Starts loading `open_first` at once (when not empty): the viewer constructs its state before
  // its window, so the load runs while GLFW and GL start up.
  explicit AppState(const std::string& open_first = {});

  // Starts a background load; the active session stays until it finishes.
  void open(const std::string& path);
  // Installs a finished load as the active session; true when one arrived this call.
  // before_replace runs first: whatever reads the old session lets go of it.
  bool poll_loader(const std::function<void()>& before_replace = {});
  const DocumentLoader& loader() const { return loader_; }
  Session& session() { return *session_; }
  const Session& session() const { return *session_; }
  // Background results, and a load's result, wake the event loop through it. Set it before
  // opening anything but the first file, which starts in the constructor.
  void set_ready_callback(std::function<void()> ready);

  // The last open that failed (the session's own errors are session().error()).
  const std::string& error() const { return error_.empty() ? session_->error() : error_; }
  void clear_error() {
    error_.clear();
    session_->clear_error();
  }
  RecentFiles& recent() { return recent_; }

  // Run B of a comparison (snapscope A B, File > Compare with...): its own Session, loaded in the
  // background beside the active one. A failed load leaves no comparison and sets error().
  void open_compare(const std::string& path);
  bool poll_compare_loader(const std::function<void()>& before_replace = {});  // true when B arrived
  Session* compare_session() { return compare_ ? &compare_->b() : nullptr; }
  // The comparison of run A (the active session) with run B, when B is open.
  Comparison* comparison() { return compare_.get(); }
  bool compare_loading() const { return compare_loader_.busy(); }
  void close_compare() { compare_.reset(); }
  // Sets the wrapper list (core/analysis/frame_kind.h), saves it with the settings, and drops
  // what was grouped by location under the old list.
  void set_wrapper_libraries(std::vector<std::string> packages);

 private:
  std::unique_ptr<Session> session_ = std::make_unique<Session>();
  DocumentLoader loader_;
  std::unique_ptr<Comparison> compare_;  // after session_: goes first
  DocumentLoader compare_loader_;
  RecentFiles recent_;
  std::string error_;
  std::function<void()> ready_;
};

}  // namespace snapscope
