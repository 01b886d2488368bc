// The viewer opening crafted converted directories: one whose elements.db fails the checks is
// refused with one line naming the file (headless) and leaves a responsive window (xdotool); one
// whose rows hold bad values opens, and the inspector shows the bad frame as marked.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "core/store/elements_db/sqlite_handle.h"
#include "core/view/document.h"
#include "gui_harness.h"

using namespace snapscope;
using namespace snapscope::gui_test;
namespace fs = std::filesystem;

namespace {

// A copy of the app's own conversion of the fixture, with `sql` run on its elements.db.
fs::path crafted_copy(const fs::path& sandbox, const std::string& name, const std::string& sql) {
  const std::string input = fixture_pickle(sandbox).string();
  const fs::path converted = convert_with_app(sandbox, input)->directory;
  const fs::path copy = sandbox / name;
  fs::remove_all(copy);
  fs::copy(converted, copy, fs::copy_options::recursive);
  SqliteDatabase db((copy / "elements.db").string(), SqliteDatabase::Mode::Create);
  db.exec(sql);
  return copy;
}

}  // namespace

TEST_CASE("a crafted elements.db is refused with one line naming it, and nothing is drawn") {
  const fs::path sandbox = make_sandbox("hostile-refused");
  const fs::path crafted = crafted_copy(sandbox, "planted.snapscope", "CREATE VIEW planted AS SELECT 1");
  const RunResult run = run_app(sandbox, shell_quote(crafted.string()) + " --screenshot " +
                                             shell_quote((sandbox / "out.png").string()) + " 2>&1");
  CHECK(run.exit_code == 1);
  CHECK(run.out == "snapscope: " + (crafted / "elements.db").string() +
                       ": elements.db schema differs from the one this version writes\n");
  CHECK_FALSE(fs::exists(sandbox / "out.png"));
}

TEST_CASE("xdotool: after a crafted directory fails to open, the window still answers keys") {
  const fs::path sandbox = make_sandbox("hostile-window");
  const fs::path crafted =
      crafted_copy(sandbox, "version.snapscope", "UPDATE meta SET value = '99' WHERE key = 'format_version'");
  const std::string out = drive_window(sandbox, crafted.string(), {"press ctrl+j", "press ctrl+k"}, false);
  // Both keys answered after the failed open: no document (the load error instead of a cursor), an
  // idle SQL console.
  const std::vector<nlohmann::json> lines = json_lines(out);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0]["loaded"] == false);
  CHECK(lines[0]["error"] ==
        (crafted / "elements.db").string() + ": unsupported elements.db format version '99' (expected 8)");
  CHECK(lines[1] == nlohmann::json::parse(R"({"sql":{"running":false}})"));
}

TEST_CASE("a stack naming a missing frame is refused at open with one line, and nothing is drawn") {
  // Issue 39 item 9: nothing may be shown as if it were real (before, the inspector showed
  // "<frame 999999 missing from elements.db>").
  const fs::path sandbox = make_sandbox("hostile-frames");
  const fs::path crafted = crafted_copy(sandbox, "frames.snapscope", "UPDATE stacks SET frame_id = 999999");
  const RunResult run = run_app(sandbox, shell_quote(crafted.string()) + " --screenshot " +
                                             shell_quote((sandbox / "out.png").string()) + " 2>&1");
  CHECK(run.exit_code == 1);
  CHECK(run.out == "snapscope: " + (crafted / "elements.db").string() +
                       ": stacks: a row points at a frame that does not exist\n");
  CHECK_FALSE(fs::exists(sandbox / "out.png"));
}
