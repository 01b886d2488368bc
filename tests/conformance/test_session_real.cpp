// A cold open's early categories on the real snapshots: the session classifies with the stack
// catalog and trace-overflow warning the converter read from the snapshot in memory, while
// elements.db is still "being written", and gets what a session reading them from the database
// gets: the same categories for every allocation and the same findings, word for word.
#include <doctest/doctest.h>

#include <memory>

#include "conformance/real_snapshots.h"
#include "core/analysis/trace_overflow.h"
#include "core/cursor/stack_catalog.h"
#include "core/session/session.h"
#include "core/snapshot/snapshot_reader.h"
#include "unit/support/generated_snapshot.h"
#include "unit/support/session_polling.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;
using namespace snapscope::conformance;
namespace fs = std::filesystem;

TEST_SUITE("conformance") {
  TEST_CASE("session: categories and findings from the catalog in memory equal those from elements.db") {
    for (const fs::path& pickle : snapshot_pickles()) {
      CAPTURE(pickle.filename().string());
      test::TempDir dir;
      test::convert_into(pickle, dir / "converted");
      LoadProgress progress;
      Session reference(open_document((dir / "converted").string(), progress), {});
      reference.wait_settled();
      REQUIRE(reference.categories() != nullptr);

      auto document = open_document((dir / "converted").string(), progress);
      auto pending = std::make_shared<PendingDatabase>();
      document->pending_database = pending;
      Session early(std::move(document), {});
      const Snapshot snapshot = read_snapshot(pickle.string());
      pending->offer_early_indexes(
          {catalog_from_snapshot(snapshot), trace_overflow_warning(*snapshot.allocator_settings)});
      REQUIRE(test::poll_for_categories(early));
      CHECK(early.database_writing());
      CHECK(early.warning() == reference.warning());
      CHECK(early.categories()->classification.categories ==
            reference.categories()->classification.categories);
      CHECK(test::finding_lines(early.findings()) == test::finding_lines(reference.findings()));

      pending->finish();
      early.wait_settled();
      // With the allocator history (OOM forensics) in, both sessions say the same again.
      CHECK(test::finding_lines(early.findings()) == test::finding_lines(reference.findings()));
      CHECK(early.error().empty());
    }
  }
}
