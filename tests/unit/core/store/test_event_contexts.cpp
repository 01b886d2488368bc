// event_contexts ids: 0 for the all-zero triple, then 1, 2, ... in order of first use, one per
// distinct triple however the events interleave them; clear() forgets them all.
#include <doctest/doctest.h>

#include "core/store/elements_db/elements_db_schema.h"
#include "core/store/elements_db/event_contexts.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;
using snapscope::elements_db::EventContext;
using snapscope::elements_db::EventContexts;
using snapscope::test::TempDir;

TEST_CASE("event contexts: ids by first use, equal triples share one, written with row 0") {
  EventContexts contexts;
  CHECK(contexts.id_of({}) == 0);
  CHECK(contexts.id_of({7, 0, 0}) == 1);
  CHECK(contexts.id_of({7, 0, 0}) == 1);
  CHECK(contexts.id_of({0, 3, 0}) == 2);
  CHECK(contexts.id_of({}) == 0);
  CHECK(contexts.id_of({7, 0, 0}) == 1);  // not the last one used: found in the map
  CHECK(contexts.id_of({7, 3, 9}) == 3);
  CHECK(contexts.id_of({0, 3, 0}) == 2);

  TempDir dir;
  SqliteDatabase db((dir / "c.db").string(), SqliteDatabase::Mode::Create);
  db.exec(kElementsDbTables);
  contexts.write(db);
  SqliteStatement rows =
      db.prepare("SELECT id, stream, compile_context, user_metadata FROM event_contexts ORDER BY id");
  std::vector<std::string> written;
  while (rows.next_row()) {
    written.push_back(std::to_string(rows.column_int(0)) + ":" + std::to_string(rows.column_int(1)) + "," +
                      std::to_string(rows.column_int(2)) + "," + std::to_string(rows.column_int(3)));
  }
  CHECK(written == std::vector<std::string>{"0:0,0,0", "1:7,0,0", "2:0,3,0", "3:7,3,9"});

  contexts.clear();
  CHECK(contexts.id_of({0, 3, 0}) == 1);
  CHECK(contexts.id_of({7, 0, 0}) == 2);
}
