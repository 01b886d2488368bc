// Every real snapshot converted: the allocations view gives back each element exactly as the
// layout file has it (a traced allocation's row leaves addr, size and stack_id to its alloc
// event, most rows leave stack_index to the devices row and free_event to the alloc event), and
// every event's context row exists; SQLite's integrity check passes.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

#include "core/convert/convert.h"
#include "core/store/allocations_json/allocations_json.h"
#include "core/store/elements_db/sqlite_handle.h"
#include "core/timeline/timeline.h"
#include "real_snapshots.h"

namespace fs = std::filesystem;
using namespace snapscope;
using namespace snapscope::conformance;

namespace {

int64_t single_int(SqliteDatabase& db, const std::string& sql) {
  SqliteStatement query = db.prepare(sql);
  REQUIRE(query.next_row());
  return query.column_int(0);
}

// Elements whose allocations row differs from the layout file's element, and rows seen.
void check_device(SqliteDatabase& db, const DeviceLayout& layout) {
  SqliteStatement rows = db.prepare(
      "SELECT elem, addr, size, stack_id, origin, stack_index, coalesce(alloc_event, -1), "
      "coalesce(free_event, -1) FROM allocations "
      "WHERE id BETWEEN ?1 << 40 AND (?1 << 40) | 1099511627775 ORDER BY id");
  rows.bind(1, int64_t{layout.device});
  const auto& elements = layout.blocks.elements;
  const Timeline timeline(layout.blocks);
  size_t seen = 0, differing = 0;
  while (rows.next_row()) {
    const auto elem = static_cast<size_t>(rows.column_int(0));
    REQUIRE(elem < elements.size());
    const ReplayElement& e = elements[elem];
    const bool same =
        rows.column_int(1) == static_cast<int64_t>(e.addr) &&
        rows.column_int(2) == static_cast<int64_t>(e.size) &&
        rows.column_int(3) == static_cast<int64_t>(e.stack) &&
        rows.column_int(4) == static_cast<int64_t>(e.origin) &&
        rows.column_int(5) == static_cast<int64_t>(timeline.stack_position(static_cast<uint32_t>(elem))) &&
        rows.column_int(6) == e.alloc_event && rows.column_int(7) == e.free_event;
    differing += same ? 0 : 1;
    ++seen;
  }
  CHECK(seen == elements.size());
  CHECK(differing == 0);
}

}  // namespace

TEST_SUITE("conformance") {
  TEST_CASE("database: the allocations view is the layout's elements; every event has its context") {
    for (const fs::path& pickle : snapshot_pickles()) {
      CAPTURE(pickle.filename().string());
      const fs::path out =
          fs::temp_directory_path() /
          ("snapscope_database_real_" + std::to_string(::getpid()) + "_" + pickle.stem().string());
      fs::remove_all(out);
      ConvertOptions options;
      options.input = pickle.string();
      options.output_dir = out.string();
      convert_snapshot(options);

      const AllocationsFile layouts = read_allocations_json((out / kAllocationsFileName).string());
      SqliteDatabase db((out / kElementsDbName).string(), SqliteDatabase::Mode::ReadOnly);
      for (const DeviceLayout& layout : layouts.devices) {
        CAPTURE(layout.device);
        check_device(db, layout);
      }
      CHECK(single_int(db, "SELECT count(*) FROM allocation_view") ==
            single_int(db, "SELECT count(*) FROM allocation_rows"));
      CHECK(single_int(db,
                       "SELECT count(*) FROM events e LEFT JOIN event_contexts c ON c.id = e.context "
                       "WHERE c.id IS NULL") == 0);
      CHECK(single_int(db, "SELECT count(*) FROM event_view") ==
            single_int(db, "SELECT sum(events) FROM devices"));
      // events and allocation_rows are pages the converter wrote itself (RowidTablePages).
      SqliteStatement integrity = db.prepare("PRAGMA integrity_check");
      REQUIRE(integrity.next_row());
      CHECK(integrity.column_text(0) == "ok");
      CHECK(single_int(db, "SELECT coalesce((SELECT stat FROM sqlite_stat1 WHERE tbl = 'events'), 0)") ==
            single_int(db, "SELECT count(*) FROM events"));
      fs::remove_all(out);
    }
  }
}
