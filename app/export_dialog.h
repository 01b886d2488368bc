// File > Export...: the dialog (format, file, the outcome) over Session's exports (core/session:
// the shown device at the cursor, as the panels show it) or the chart as a PNG through the
// screenshot path. The same files as `snapscope-convert --export`. Widget state only.
#pragma once

#include <functional>
#include <string>

#include "core/export/export.h"
#include "core/session/session.h"

namespace snapscope {

class ExportDialog {
 public:
  // Writes the window's current frame to a PNG (the screenshot path); throws on failure.
  using PngWriter = std::function<void(const std::string& path)>;

  void open(const Session& session);  // shows the dialog with a default file name
  void draw(Session& session, const PngWriter& write_png);
  // The export itself, shared by the dialog and the `export` script command. FORMAT is a
  // `--export` name or "png". Throws with a one-line message naming the file on failure.
  void run(Session& session, const std::string& format, const std::string& path, const PngWriter& write_png);
  // The dialog's Export button: a file format is written by the Session in the background (a
  // multi-GB timeline-json takes seconds) while the window stays live; png is captured at once.
  void start(Session& session, const std::string& format, const std::string& path,
             const PngWriter& write_png);

 private:
  static ExportFormat file_format(const std::string& format);  // a core/export format name
  std::string default_path(const Session& session) const;

  bool open_requested_ = false;
  int format_index_ = 0;
  char path_[1024] = {};
};

}  // namespace snapscope
