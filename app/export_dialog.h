// File > Export...: writes one of core/export's formats for the shown device — the moment is the
// time cursor (or the peak when it is not placed), as the analysis panels show it — or the chart
// as a PNG through the screenshot path. The same files as `snapscope-convert --export`.
#pragma once

#include <functional>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "core/analysis/annotation_pairing.h"
#include "core/analysis/stack_source.h"
#include "core/session/session.h"

namespace snapscope {

class ExportDialog {
 public:
  // Writes the window's current frame to a PNG (the screenshot path); throws on failure.
  using PngWriter = std::function<void(const std::string& path)>;

  void open(const Session& state);  // shows the dialog with a default file name
  void draw(Session& state, const PngWriter& write_png);
  // The export itself, shared by the dialog and the `export` script command. FORMAT is a
  // `--export` name or "png". Throws with a one-line message naming the file on failure.
  void run(Session& state, const std::string& format, const std::string& path, const PngWriter& write_png);
  // The dialog's Export button: a file format is written on a worker thread (a multi-GB
  // timeline-json takes seconds) while the window stays live; png is captured at once.
  void start(Session& state, const std::string& format, const std::string& path, const PngWriter& write_png);
  bool busy() const { return running_.valid(); }
  bool finished() const;  // an export finished and waits for poll()
  void poll();            // takes a finished export's result into message()
  void wait();            // blocks until no export runs (before the session it reads goes away)
  const std::string& message() const { return message_; }  // the last result, shown in the dialog
  void set_message(std::string message) { message_ = std::move(message); }

 private:
  void load_document_inputs(const Session& state);
  // What an export of `format` reads, gathered on the UI thread (the worker never touches `state`).
  std::function<void()> prepare(Session& state, const std::string& format, const std::string& path);
  std::string default_path(const Session& state) const;

  bool open_requested_ = false;
  int format_index_ = 0;
  char path_[1024] = {};
  std::string message_;
  // elements.db readers for the open document, made on first export.
  const Document* loaded_for_ = nullptr;
  std::unique_ptr<StackSource> stacks_;
  std::vector<AnnotationRecord> annotations_;
  std::future<std::string> running_;  // the export on the worker: its message, or throws
  std::string running_path_;
};

}  // namespace snapscope
