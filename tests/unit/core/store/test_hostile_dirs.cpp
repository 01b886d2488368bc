// Crafted converted directories: each is a real conversion with one thing changed the way a
// hostile or damaged copy could change it, and the one-line error opening it must give (or, for
// values inside rows, the clearly marked bad row the readers show instead of crashing).
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "core/convert/convert.h"
#include "core/cursor/stack_catalog.h"
#include "core/document/document.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/store/allocations_json/allocations_json.h"
#include "core/store/elements_db/elements_db_check.h"
#include "core/store/elements_db/elements_db_reader.h"
#include "core/store/elements_db/sqlite_handle.h"
#include "core/util/zstd_codec.h"
#include "core/view/allocation_details.h"
#include "unit/support/generated_snapshot.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;
using snapscope::test::TempDir;
namespace fs = std::filesystem;

namespace {

// dir/NAME: a fresh conversion of `snapshot`.
fs::path convert_into(const TempDir& dir, const std::string& name, const test::FixtureSnapshot& snapshot,
                      int device = -1) {
  const fs::path pickle = dir / (name + ".pickle");
  test::write_file(pickle, test::pickle_bytes(snapshot));
  test::convert_into(pickle, dir / name, device);
  return dir / name;
}

// A copy of the good directory with `sql` run on its elements.db.
fs::path crafted_db(const TempDir& dir, const fs::path& good, const std::string& name,
                    const std::string& sql) {
  const fs::path copy = dir / name;
  fs::copy(good, copy, fs::copy_options::recursive);
  SqliteDatabase db((copy / "elements.db").string(), SqliteDatabase::Mode::Create);
  db.exec(sql);
  return copy;
}

std::string open_error(const fs::path& dir) {
  LoadProgress progress;
  try {
    open_document(dir.string(), progress);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(opened)";
}

struct Case {
  const char* name;
  const char* sql;
  const char* error;  // after "<dir>/elements.db: "
};

const Case kCases[] = {
    {"version", "UPDATE meta SET value = '99' WHERE key = 'format_version'",
     "unsupported elements.db format version '99' (expected 8)"},
    {"format", "UPDATE meta SET value = 'other' WHERE key = 'format'", "not a snapscope elements.db"},
    {"no_meta", "DROP TABLE meta", "not a snapscope elements.db"},
    {"extra_view", "CREATE VIEW extra AS SELECT 1",
     "elements.db schema differs from the one this version writes"},
    {"trigger", "CREATE TRIGGER t AFTER INSERT ON meta BEGIN SELECT 1; END",
     "elements.db schema differs from the one this version writes"},
    {"replaced_view", "DROP VIEW allocation_view; CREATE VIEW allocation_view AS SELECT * FROM allocations",
     "elements.db schema differs from the one this version writes"},
    {"count", "UPDATE devices SET block_actions = block_actions + 1",
     "devices or element/action counts disagree with allocations.json"},
    {"events", "UPDATE devices SET events = 4000000000", "devices.events of device 0 is wrong"},
    {"device", "UPDATE devices SET device = 70000 WHERE device = 1", "device number 70000 out of range"},
    {"reserved", "UPDATE reserved_steps SET reserved = -5 WHERE device = 0",
     "reserved_steps: a bad row for device 0"},
    {"reserved_start", "DELETE FROM reserved_steps WHERE device = 0 AND idx = -1",
     "reserved_steps: a bad row for device 0"},
    {"missing_frame",
     "UPDATE stacks SET frame_id = frame_id + 1000000 WHERE stack_id = (SELECT max(stack_id) FROM stacks)",
     "stacks: a row points at a frame that does not exist"},
    {"negative_frame", "UPDATE stacks SET frame_id = -1 WHERE stack_id = (SELECT max(stack_id) FROM stacks)",
     "stacks: a row points at a frame that does not exist"},
    // Issue 39 item 9: values inside the small tables, each caught by one aggregate at open.
    {"segment_stack", "UPDATE segment_allocations SET stack_id = 2147483000",
     "segment_allocations: stack id 2147483000, which the stacks table does not hold"},
    {"device_allocations", "UPDATE devices SET allocations = allocations - 1 WHERE device = 0",
     "devices: the element counts of device 0 contradict the tables"},
    {"device_segments", "UPDATE devices SET segment_allocations = segment_allocations + 1 WHERE device = 1",
     "devices: the element counts of device 1 contradict the tables"},
    {"context_string",
     "UPDATE event_contexts SET user_metadata = 999999 WHERE id = (SELECT max(id) FROM event_contexts)",
     "event_contexts: a row points at a string that does not exist"},
    {"long_string",
     "UPDATE strings SET text = hex(zeroblob(8500000)) WHERE id = (SELECT max(id) FROM strings)",
     "strings: a text of 17000000 bytes (the limit is 16 MiB)"},
};

// Values inside the tables with a row per trace entry: the directory opens (a scan at open would
// cost seconds per 10M rows) and the first read of the row is the one-line error.
const Case kReadCases[] = {
    {"event_size", "UPDATE events SET size = -5 WHERE id = (SELECT min(id) FROM events)",
     "events: a negative size"},
    {"allocation_size",
     "UPDATE allocation_rows SET size = -1 WHERE id = (SELECT max(id) FROM allocation_rows)",
     "allocation_rows: a negative size"},
    {"free_before_alloc",
     "UPDATE allocation_rows SET free_after = -2 WHERE id = (SELECT min(id) FROM allocation_rows WHERE "
     "free_after IS NOT NULL)",
     "allocation_rows: an allocation freed before it is allocated"},
    {"stack_index",
     "UPDATE allocation_rows SET stack_index = 9000000000000 WHERE id = (SELECT min(id) FROM "
     "allocation_rows)",
     "allocation_rows: stack_index 9000000000000 out of range"},
    {"event_stack", "UPDATE events SET stack_id = 9000000000000 WHERE id = (SELECT min(id) FROM events)",
     "events: stack id 9000000000000, which the stacks table does not hold"},
    {"allocation_stack",
     "UPDATE allocation_rows SET stack_id = -3 WHERE id = (SELECT max(id) FROM allocation_rows)",
     "allocation_rows: stack id -3, which the stacks table does not hold"},
    {"dangling_context", "UPDATE events SET context = 99 WHERE id = (SELECT min(id) FROM events)",
     "events: a row points at an event_contexts row that does not exist"},
};

}  // namespace

TEST_CASE("hostile directories: each crafted elements.db gives its one-line error") {
  TempDir dir;
  const fs::path good = convert_into(dir, "good", test::standard_fixture());
  CHECK(open_error(good) == "(opened)");
  for (const Case& c : kCases) {
    CAPTURE(c.name);
    const fs::path crafted = crafted_db(dir, good, c.name, c.sql);
    CHECK(open_error(crafted) == (crafted / "elements.db").string() + ": " + c.error);
  }
}

// Every events row and every element's row of `dir` read as the viewer's panels read them: the
// allocator history (read_events), the segments (segment_events), the inspector (allocation).
std::string first_read_error(const fs::path& dir) {
  try {
    const ElementsDbReader reader((dir / "elements.db").string());
    std::vector<EventRow> rows;
    for (int device = 0; device < 2; ++device) {
      reader.read_events(device, 0, reader.event_count(device), rows);
      reader.segment_events(device);
      for (TimelineKind kind : {TimelineKind::Blocks, TimelineKind::Segments}) {
        for (uint32_t elem = 0; reader.allocation(device, kind, elem); ++elem) {
        }
      }
    }
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(read)";
}

TEST_CASE(
    "hostile directories: crafted values in events and allocation_rows are errors where they are read") {
  TempDir dir;
  const fs::path good = convert_into(dir, "good", test::standard_fixture());
  CHECK(first_read_error(good) == "(read)");
  for (const Case& c : kReadCases) {
    CAPTURE(c.name);
    const fs::path crafted = crafted_db(dir, good, c.name, c.sql);
    CHECK(open_error(crafted) == "(opened)");
    CHECK(first_read_error(crafted) == (crafted / "elements.db").string() + ": " + c.error);
  }
}

TEST_CASE("converted directories: one from before allocations.json.zst (plain text) still opens") {
  TempDir dir;
  const fs::path good = convert_into(dir, "good", test::standard_fixture());
  const fs::path older = dir / "older";
  fs::copy(good, older, fs::copy_options::recursive);
  const ZstdDecoded text = zstd_decompress(test::read_file(older / kAllocationsFileName), size_t{1} << 30);
  REQUIRE_FALSE(text.error);
  fs::remove(older / kAllocationsFileName);
  test::write_file(older / kPlainAllocationsFileName, std::string(text.content()));
  LoadProgress progress;
  const auto document = open_document(older.string(), progress);
  LoadProgress good_progress;
  const auto good_document = open_document(good.string(), good_progress);
  REQUIRE(document->devices.size() == good_document->devices.size());
  CHECK(document->devices.size() == 2);
  for (size_t i = 0; i < document->devices.size(); ++i) {
    CHECK(document->devices[i].blocks.input().elements.size() ==
          good_document->devices[i].blocks.input().elements.size());
  }
}

TEST_CASE("hostile directories: damaged, missing or mismatched files") {
  TempDir dir;
  const fs::path good = convert_into(dir, "good", test::standard_fixture());
  const auto copy = [&](const std::string& name) {
    fs::copy(good, dir / name, fs::copy_options::recursive);
    return dir / name;
  };
  const fs::path text = copy("text");
  test::write_file(text / "elements.db", "this is not a database\n");
  CHECK(open_error(text) == (text / "elements.db").string() + ": file is not a database");

  const fs::path missing = copy("missing");
  fs::remove(missing / "elements.db");
  CHECK(open_error(missing) ==
        (missing / "elements.db").string() + ": missing (a converted directory holds two files)");

  const fs::path truncated = copy("truncated");
  fs::resize_file(truncated / "elements.db", fs::file_size(good / "elements.db") / 3);
  CHECK(open_error(truncated).starts_with((truncated / "elements.db").string() + ": "));

  const fs::path layout_cut = copy("layout_cut");
  fs::resize_file(layout_cut / kAllocationsFileName, fs::file_size(good / kAllocationsFileName) / 2);
  CHECK(open_error(layout_cut) == (layout_cut / kAllocationsFileName).string() + ": truncated zstd data");

  const fs::path no_layout = copy("no_layout");
  fs::remove(no_layout / kAllocationsFileName);
  CHECK(open_error(no_layout) ==
        no_layout.string() + ": not a snapshot pickle or converted directory (no allocations.json.zst)");

  // A layout whose element names a stack far past those elements.db holds.
  const fs::path far_stack = copy("far_stack");
  AllocationsFile rewritten = read_allocations_json((good / kAllocationsFileName).string());
  REQUIRE(!rewritten.devices[0].blocks.elements.empty());
  rewritten.devices[0].blocks.elements[0].stack = 2147483000;
  fs::remove(far_stack / kAllocationsFileName);
  write_allocations_json(rewritten, (far_stack / kAllocationsFileName).string());
  CHECK(open_error(far_stack) ==
        (far_stack / "elements.db").string() +
            ": allocations.json names stack 2147483000, which elements.db does not hold");

  // The layout of another conversion (device 0 only) beside this elements.db.
  const fs::path other_dir = convert_into(dir, "other", test::standard_fixture(), 0);
  const fs::path mixed = copy("mixed");
  fs::copy_file(other_dir / "allocations.json.zst", mixed / "allocations.json.zst",
                fs::copy_options::overwrite_existing);
  CHECK(open_error(mixed) == (mixed / "elements.db").string() +
                                 ": devices or element/action counts disagree with allocations.json");
}

TEST_CASE(
    "hostile directories: a small allocations.json.zst of much whitespace is refused before it is held") {
  TempDir dir;
  const fs::path good = convert_into(dir, "good", test::standard_fixture());
  const fs::path bomb = dir / "bomb";
  fs::copy(good, bomb, fs::copy_options::recursive);
  // 64 MiB of text (8 frames of 8 MiB, as the writer frames it), a few KB compressed: far past what
  // this elements.db's handful of elements can need.
  std::string compressed;
  ZstdEncoder encoder;
  const std::string spaces(size_t{8} << 20, ' ');
  for (int frame = 0; frame < 8; ++frame) encoder.compress_frame(spaces, compressed);
  REQUIRE(compressed.size() < 64 * 1024);
  test::write_file(bomb / kAllocationsFileName, compressed);
  const std::string error = open_error(bomb);
  CHECK(error.starts_with((bomb / kAllocationsFileName).string() + ": decompresses to more than "));
  CHECK(layout_text_bound((good / "elements.db").string()) < (size_t{2} << 20));
  LoadProgress progress;
  CHECK_NOTHROW(open_document(good.string(), progress));
}

TEST_CASE("hostile directories: bad values inside rows are errors or marked rows, never crashes") {
  TempDir dir;
  const fs::path good = convert_into(dir, "good", test::standard_fixture());
  // A stack that references a frame the file does not have: the inspector shows a marked frame.
  const fs::path frames = crafted_db(dir, good, "frames", "UPDATE stacks SET frame_id = 999999");
  const ElementsDbReader reader((frames / "elements.db").string());
  StackTextReader stack_text(reader);
  bool marked = false;
  for (uint32_t elem = 0; elem < 5; ++elem) {
    const std::optional<AllocationRow> row = reader.allocation(0, TimelineKind::Blocks, elem);
    REQUIRE(row);
    for (const FrameText& frame : stack_text.stack(row->stack_id)) {
      marked |= frame.name == "<frame 999999 missing from elements.db>";
    }
  }
  CHECK(marked);
  // A stack id far beyond the rows: an error, not a range allocated for every id below it.
  const fs::path stacks =
      crafted_db(dir, good, "stacks", "UPDATE stacks SET stack_id = stack_id + 1099511627776");
  CHECK_THROWS_WITH_AS(catalog_from_elements_db((stacks / "elements.db").string()),
                       doctest::Contains("stacks table has a gap before stack"), InputError);
  // Events whose context row is missing: the first read of them is the file's error (before
  // issue 39 they read as stream 0 with no texts, as if real; the good file has an event on
  // stream 7).
  std::vector<EventRow> good_events;
  const ElementsDbReader good_reader((good / "elements.db").string());
  good_reader.read_events(0, 0, good_reader.event_count(0), good_events);
  CHECK(std::any_of(good_events.begin(), good_events.end(), [](const EventRow& e) { return e.stream == 7; }));
  const fs::path contexts = crafted_db(dir, good, "contexts", "DELETE FROM event_contexts");
  const ElementsDbReader context_reader((contexts / "elements.db").string());
  std::vector<EventRow> events;
  CHECK_THROWS_WITH_AS(context_reader.read_events(0, 0, context_reader.event_count(0), events),
                       ((contexts / "elements.db").string() +
                        ": events: a row points at an event_contexts row that does not exist")
                           .c_str(),
                       InputError);
  CHECK(context_reader.events_with_metadata(0, "anything").empty());
  // Times so far apart that a lifetime would overflow: no lifetime rather than undefined behaviour.
  AllocationDetails details;
  details.alloc_time_us = INT64_MIN + 1;
  details.free_time_us = INT64_MAX;
  CHECK_FALSE(details.lifetime_us().has_value());
}
