// DbStackSource and read_db_annotations on a small elements.db built with the store's schema.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "core/analysis/call_tree.h"
#include "core/analysis/db_annotations.h"
#include "core/analysis/db_stack_source.h"
#include "core/analysis/live_elements.h"
#include "core/analysis/moment_table.h"
#include "core/store/elements_db/elements_db.h"
#include "core/store/elements_db/elements_db_schema.h"
#include "core/store/elements_db/sqlite_handle.h"
#include "unit/support/test_analysis_fixtures.h"

using namespace snapscope;
using namespace snapscope::testing;
namespace fs = std::filesystem;

namespace {

// Writes the fixture's strings, frames and stacks the way elements.db stores them.
class FixtureDb {
 public:
  explicit FixtureDb(const FakeStackSource& source)
      : path_((fs::temp_directory_path() / ("snapscope_analysis_" + std::to_string(::getpid()) + ".db"))
                  .string()) {
    fs::remove(path_);
    SqliteDatabase db(path_, SqliteDatabase::Mode::Create);
    db.exec(kElementsDbTables);
    db.exec("INSERT INTO strings VALUES (0, '')");
    db.exec("INSERT INTO meta VALUES ('format_version', '" + std::to_string(kElementsDbVersion) + "')");
    for (size_t id = 0; id < source.frames.size(); ++id) {
      const FakeFrame& frame = source.frames[id];
      const auto name = int64_t(1 + 2 * id), filename = int64_t(2 + 2 * id);
      insert(db, "INSERT INTO strings VALUES (?, ?)", name, frame.name);
      insert(db, "INSERT INTO strings VALUES (?, ?)", filename, frame.filename);
      SqliteStatement row = db.prepare("INSERT INTO frames VALUES (?, ?, ?, ?, 0, 0, 0, 0)");
      row.bind(1, int64_t(id));
      row.bind(2, name);
      row.bind(3, filename);
      row.bind(4, frame.line);
      row.run();
    }
    for (size_t stack = 1; stack < source.stacks.size(); ++stack) {
      for (size_t depth = 0; depth < source.stacks[stack].size(); ++depth) {
        SqliteStatement row = db.prepare("INSERT INTO stacks VALUES (?, ?, ?)");
        row.bind(1, int64_t(stack));
        row.bind(2, int64_t(depth));
        row.bind(3, int64_t{source.stacks[stack][depth]});
        row.run();
      }
    }
    db.exec(
        "INSERT INTO annotations VALUES (0, 0, 'START', 'step', 100), (1, 0, 'END', 'step', 200),"
        " (2, 1, 'START', 'other', NULL)");
  }
  ~FixtureDb() { fs::remove(path_); }
  const std::string& path() const { return path_; }

 private:
  static void insert(SqliteDatabase& db, const char* sql, int64_t id, const std::string& text) {
    SqliteStatement row = db.prepare(sql);
    row.bind(1, id);
    row.bind(2, text);
    row.run();
  }
  std::string path_;
};

}  // namespace

TEST_CASE("analysis: elements.db stacks read back exactly like the in-memory ones") {
  const FakeStackSource memory = model_stacks();
  const FixtureDb fixture(memory);
  const DbStackSource db(fixture.path());
  for (StackId stack = 0; stack < memory.stacks.size(); ++stack) {
    const std::span<const FrameId> frames = db.stack_frames(stack);
    CHECK(std::vector<FrameId>(frames.begin(), frames.end()) == memory.stacks[stack]);
  }
  const FrameRef frame = db.frame(5);
  CHECK(frame.name == "alloc_act");
  CHECK(frame.filename == "layers.py");
  CHECK(frame.line == 30);
  CHECK(frame.fx_node_op.empty());
  CHECK(db.frame(5).name.data() == frame.name.data());  // cached: the views stay put
  CHECK_THROWS_AS(db.frame(99), std::runtime_error);

  // Both sources give the same moment table and tree.
  const Timeline timeline(model_replay());
  const std::vector<LiveElement> live = live_elements(timeline, 5);
  LocationIndex from_db(db, LocationRule::FirstShownFrame),
      from_memory(memory, LocationRule::FirstShownFrame);
  CHECK(moment_table_csv(build_moment_table(live, from_db, 5)) ==
        moment_table_csv(build_moment_table(live, from_memory, 5)));
  CHECK(call_tree_text(build_call_tree(live, db), db, CallTree::kRoot, 10, 0) ==
        call_tree_text(build_call_tree(live, memory), memory, CallTree::kRoot, 10, 0));
}

TEST_CASE("analysis: annotations come back from elements.db, NULL time as no time") {
  const FixtureDb fixture(model_stacks());
  const std::vector<AnnotationRecord> records = read_db_annotations(fixture.path());
  REQUIRE(records.size() == 3);
  CHECK(records[0].stage == "START");
  CHECK(records[1].name == "step");
  CHECK(records[1].time_us == 200);
  CHECK(records[2].device == 1);
  CHECK(records[2].time_us == kNoTime);
}

TEST_CASE("analysis: a file that is not an elements.db is one clear error") {
  CHECK_THROWS_WITH_AS(DbStackSource("/nonexistent/elements.db"),
                       doctest::Contains("/nonexistent/elements.db: "), std::runtime_error);
}
