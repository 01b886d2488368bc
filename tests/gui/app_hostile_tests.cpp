// The viewer opening crafted converted directories: one whose elements.db fails the checks is
// refused with one line naming the file (headless) and leaves a responsive window (xdotool); one
// whose rows hold bad values opens, and the inspector shows the bad frame as marked.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "core/document/document.h"
#include "core/store/elements_db/sqlite_handle.h"
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

// A crafted directory: its name, the SQL run on its elements.db, and the error after
// "<dir>/elements.db: ".
struct Crafted {
  const char* name;
  const char* sql;
  const char* error;
};

// `snapscope DIR --screenshot` refuses `crafted` with one line naming its elements.db and draws nothing.
void check_refused_at_open(const fs::path& sandbox, const fs::path& crafted, const std::string& error) {
  const RunResult run = run_app(sandbox, shell_quote(crafted.string()) + " --screenshot " +
                                             shell_quote((sandbox / "out.png").string()) + " 2>&1");
  CHECK(run.exit_code == 1);
  CHECK(run.out == "snapscope: " + (crafted / "elements.db").string() + ": " + error + "\n");
  CHECK_FALSE(fs::exists(sandbox / "out.png"));
}

}  // namespace

TEST_CASE("a crafted elements.db is refused with one line naming it, and nothing is drawn") {
  const fs::path sandbox = make_sandbox("hostile-refused");
  const fs::path crafted = crafted_copy(sandbox, "planted.snapscope", "CREATE VIEW planted AS SELECT 1");
  check_refused_at_open(sandbox, crafted, "elements.db schema differs from the one this version writes");
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
  check_refused_at_open(sandbox, crafted, "stacks: a row points at a frame that does not exist");
}

TEST_CASE("crafted values in elements.db's small tables are refused at open with one line each") {
  // Issue 39 item 9: each is caught by one aggregate over its table when the directory opens.
  const Crafted cases[] = {
      {"segment", "UPDATE segment_allocations SET stack_id = 2147483000",
       "segment_allocations: stack id 2147483000, which the stacks table does not hold"},
      {"devices", "UPDATE devices SET allocations = allocations - 1 WHERE device = 0",
       "devices: the element counts of device 0 contradict the tables"},
      {"context", "UPDATE event_contexts SET user_metadata = 999999",
       "event_contexts: a row points at a string that does not exist"},
      {"string", "UPDATE strings SET text = hex(zeroblob(8500000)) WHERE id = (SELECT max(id) FROM strings)",
       "strings: a text of 17000000 bytes (the limit is 16 MiB)"},
  };
  const fs::path sandbox = make_sandbox("hostile-rows");
  for (const Crafted& c : cases) {
    CAPTURE(c.name);
    check_refused_at_open(sandbox, crafted_copy(sandbox, std::string(c.name) + ".snapscope", c.sql), c.error);
  }
}

TEST_CASE("crafted values in events and allocation_rows: the inspector names the file where it reads them") {
  // Issue 39 item 9, the big tables: read row by row where used, never scanned at open. The chart
  // (drawn from the layout file, checked against elements.db) opens; selecting an allocation
  // reads its row, and the bad value is the session's one-line error instead of a detail.
  const Crafted cases[] = {
      {"size", "UPDATE allocation_rows SET size = -1", "allocation_rows: a negative size"},
      {"free", "UPDATE allocation_rows SET free_after = -2 WHERE free_after IS NOT NULL",
       "allocation_rows: an allocation freed before it is allocated"},
      {"stack_index", "UPDATE allocation_rows SET stack_index = 9000000000000",
       "allocation_rows: stack_index 9000000000000 out of range"},
      {"stack", "UPDATE events SET stack_id = 2147483000",
       "allocation_rows: stack id 2147483000, which the stacks table does not hold"},
  };
  const fs::path sandbox = make_sandbox("hostile-read-rows");
  const auto document = convert_with_app(sandbox, fixture_pickle(sandbox).string());
  const Timeline& timeline = document->devices.front().blocks;
  // The first allocation freed in the trace: `select` takes the first at its address.
  uint32_t chosen = kNoIndex;
  for (uint32_t e = 0; e < timeline.element_count() && chosen == kNoIndex; ++e) {
    if (timeline.ever_live(e) && timeline.free_state(e) <= timeline.action_count()) chosen = e;
  }
  REQUIRE(chosen != kNoIndex);
  const std::string script =
      "select " + std::to_string(timeline.element(chosen).addr) + "\nprint-selection\n";
  for (const Crafted& c : cases) {
    CAPTURE(c.name);
    const fs::path crafted = crafted_copy(sandbox, std::string(c.name) + ".snapscope", c.sql);
    const RunResult run = run_script(sandbox, crafted.string(), script);
    CHECK(run.exit_code == 0);
    const auto lines = json_lines(run.out);
    REQUIRE(lines.size() == 1);
    CHECK(lines[0] == nlohmann::json{{"error", (crafted / "elements.db").string() + ": " + c.error}});
  }
}

TEST_CASE("xdotool: a crafted events row is the allocator panel's one-line error, the window answers") {
  const fs::path sandbox = make_sandbox("hostile-events");
  const fs::path crafted = crafted_copy(sandbox, "events.snapscope", "UPDATE events SET size = -5");
  const std::string out = drive_window(sandbox, crafted.string(), {"press ctrl+k", "press ctrl+j"});
  const std::vector<nlohmann::json> lines = json_lines(out);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0]["allocator_error"] == (crafted / "elements.db").string() + ": events: a negative size");
  CHECK(lines[1]["loaded"] != false);
}
