#include "app/app_state.h"

#include <fstream>

#include "core/analysis/frame_kind.h"
#include "core/document/folders.h"

namespace snapscope {

namespace {

std::filesystem::path wrapper_list_file() { return config_root() / "wrapper-libraries.txt"; }

// Why a loader did not start: one load at a time, its database included.
std::string refusal(const DocumentLoader& loader) {
  return std::string(loader.finishing() ? "still writing the database of " : "still loading ") +
         loader.path() + "; try again when it is done";
}

}  // namespace

AppState::AppState(const std::string& open_first) : recent_(config_root() / "recent-files.txt") {
  recent_.load();
  std::ifstream in(wrapper_list_file());
  std::string line;
  if (in && std::getline(in, line)) snapscope::set_wrapper_libraries(split_packages(line));
  if (!open_first.empty()) open(open_first);
}

void AppState::set_wrapper_libraries(std::vector<std::string> packages) {
  std::error_code ignored;
  std::filesystem::create_directories(wrapper_list_file().parent_path(), ignored);
  std::ofstream(wrapper_list_file()) << join_packages(packages) << '\n';
  snapscope::set_wrapper_libraries(std::move(packages));
  session_->forget_locations();
}

void AppState::open(const std::string& path) {
  if (!loader_.start(path)) error_ = refusal(loader_);
}

void AppState::open_compare(const std::string& path) {
  if (!compare_loader_.start(path)) error_ = "compare: " + refusal(compare_loader_);
}

bool AppState::poll_compare_loader(const std::function<void()>& before_replace) {
  auto result = compare_loader_.take_result();
  if (!result) return false;
  if (!result->document) {
    error_ = "compare: " + result->error;
    return false;
  }
  auto opened = std::make_unique<Session>(std::move(result->document), ready_);
  // B follows A's device where it has it.
  if (session_->settings.device >= 0) opened->select_device(session_->settings.device);
  if (before_replace) before_replace();
  const AlignMode mode = compare_ ? compare_->mode() : AlignMode::Steps;  // a new B keeps the choice
  compare_.reset();  // the old comparison's diff reads the old run B
  compare_ = std::make_unique<Comparison>(*session_, std::move(opened), ready_);
  compare_->set_mode(mode);
  return true;
}

void AppState::set_ready_callback(std::function<void()> ready) {
  loader_.set_result_callback(ready);
  compare_loader_.set_result_callback(ready);
  ready_ = std::move(ready);
}

bool AppState::poll_loader(const std::function<void()>& before_replace) {
  auto result = loader_.take_result();
  if (!result) return false;
  if (!result->document) {
    error_ = result->error;  // the previous session (if any) stays open and usable
    return false;
  }
  error_.clear();
  recent_.add(result->document->opened_path);
  recent_.save();
  const ChartSettings previous = session_->settings;
  auto opened = std::make_unique<Session>(std::move(result->document), ready_);
  // The chart's choices carry over to the next file (the device only where it exists there).
  const int device = opened->settings.device;
  opened->settings = previous;
  opened->settings.device = device;
  if (previous.device >= 0 && opened->document()->find_device(previous.device))
    opened->select_device(previous.device);
  opened->fit_view();
  opened->place_opening_cursor();
  if (before_replace) before_replace();
  if (compare_) compare_->rebind_a(*opened);  // before the old run A goes
  session_ = std::move(opened);               // the old session cancels its work as it goes
  return true;
}

}  // namespace snapscope
