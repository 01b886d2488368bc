// A cold open's early categories on the real snapshots: the session classifies with the stack
// catalog and trace-overflow warning the converter read from the snapshot in memory, while
// elements.db is still "being written", and gets what a session reading them from the database
// gets: the same categories for every allocation and the same findings, word for word.
#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "conformance/real_snapshots.h"
#include "core/analysis/trace_overflow.h"
#include "core/cursor/stack_catalog.h"
#include "core/session/session.h"
#include "core/snapshot/snapshot_reader.h"
#include "unit/support/generated_snapshot.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;
using namespace snapscope::conformance;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> finding_lines(const std::vector<Finding>& findings) {
  std::vector<std::string> lines;
  for (const Finding& finding : findings) lines.push_back(finding.title + "\n" + finding.text);
  return lines;
}

bool poll_for_categories(Session& session) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (session.categories() == nullptr && std::chrono::steady_clock::now() < deadline) {
    session.poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return session.categories() != nullptr;
}

}  // namespace

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
      REQUIRE(poll_for_categories(early));
      CHECK(early.database_writing());
      CHECK(early.warning() == reference.warning());
      CHECK(early.categories()->classification.categories ==
            reference.categories()->classification.categories);
      CHECK(finding_lines(early.findings()) == finding_lines(reference.findings()));

      pending->finish();
      early.wait_settled();
      // With the allocator history (OOM forensics) in, both sessions say the same again.
      CHECK(finding_lines(early.findings()) == finding_lines(reference.findings()));
      CHECK(early.error().empty());
    }
  }
}
