// Session (core/session): one open snapshot and its background work, with no window — opening,
// background results arriving, the cursor's analysis, switching device and timeline, closing
// while work is under way, and two sessions open at once.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include "core/allocator/db_event_source.h"
#include "core/analysis/db_annotations.h"
#include "core/analysis/live_elements.h"
#include "core/analysis/state_mapping.h"
#include "core/analysis/trace_overflow.h"
#include "core/convert/convert.h"
#include "core/cursor/stack_catalog.h"
#include "core/session/session.h"
#include "core/snapshot/snapshot_reader.h"
#include "unit/support/cache_home.h"
#include "unit/support/generated_snapshot.h"
#include "unit/support/session_polling.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;
using snapscope::test::TempDir;
namespace fs = std::filesystem;

namespace {

// A generated training loop (phases, stacks, two devices) converted into `dir`/name.
fs::path converted_snapshot(const TempDir& dir, const std::string& name, uint64_t seed, int devices = 1) {
  gen::GenOptions options;
  options.events = 3000;
  options.seed = seed;
  options.devices = devices;
  const fs::path pickle = dir / (name + ".pickle");
  test::write_generated(pickle, options);
  test::convert_into(pickle, dir / name);
  return dir / name;
}

}  // namespace

TEST_CASE("session: an empty session answers none to every query") {
  Session session;
  CHECK(session.document() == nullptr);
  CHECK(session.timeline() == nullptr);
  CHECK(session.stack_catalog() == nullptr);
  CHECK(session.annotations() == nullptr);
  CHECK(session.allocator_history() == nullptr);
  CHECK(session.phase_table("") == nullptr);
  CHECK(session.analysis_now({}) == nullptr);
  CHECK(session.settled());
  session.wait_settled();  // returns at once
}

TEST_CASE("session: background indexes arrive through poll, and the cursor's analysis follows") {
  TempDir dir;
  const fs::path converted = converted_snapshot(dir, "one", 3);
  std::atomic<int> wakes{0};
  auto session = Session::open(converted.string(), [&] { ++wakes; });
  REQUIRE(session->document() != nullptr);
  REQUIRE(session->timeline() != nullptr);
  CHECK(session->settings.device == session->document()->devices.front().device);
  session->wait_settled();
  CHECK(wakes.load() >= 2);  // the catalog and the allocator history each woke the owner
  REQUIRE(session->stack_catalog() != nullptr);
  REQUIRE(session->annotations() != nullptr);
  CHECK_FALSE(session->annotations()->empty());  // the generator writes external_annotations
  REQUIRE(session->allocator_history() != nullptr);
  CHECK(session->allocator_history_error().empty());

  // The phase table is built in the background for the filter asked for.
  CHECK_FALSE(session->phase_table_current("forward"));
  session->phase_table("forward");
  session->wait_settled();
  CHECK(session->phase_table_current("forward"));
  const PhaseTable* phases = session->phase_table("forward");
  REQUIRE(phases != nullptr);
  CHECK_FALSE(phases->rows.empty());
  for (const PhaseRow& row : phases->rows) CHECK(row.name.find("forward") != std::string::npos);

  // The cursor at the peak: the background analysis lands and its tree holds the peak's bytes.
  const Timeline& timeline = *session->timeline();
  session->cursor.place(timeline, peak_state(timeline));
  session->request_analysis({});
  session->wait_settled();
  REQUIRE(session->analysis() != nullptr);
  CHECK(session->analysis_matches(*session->analysis(), {}));
  CHECK(session->analysis()->top_down.total_bytes() == timeline.peak_bytes());
  const uint64_t generation = session->analysis_generation();
  CHECK(session->analysis_now({}) == session->analysis());  // already current: nothing recomputed
  CHECK(session->analysis_generation() == generation);
}

namespace {

uint32_t levels_of(const PhaseTable& table) {
  uint32_t levels = 0;
  for (const PhaseRow& row : table.rows) levels = std::max(levels, row.depth + 1);
  return levels;
}

}  // namespace

TEST_CASE(
    "session: a complete directory's annotations come with it, so the lanes' depth precedes the table") {
  TempDir dir;
  const fs::path converted = converted_snapshot(dir, "lanes", 4);
  auto session = Session::open(converted.string());
  // Read by the open itself: nothing polled or waited for yet.
  REQUIRE(session->annotations() != nullptr);
  CHECK_FALSE(session->annotations()->empty());
  for (const std::string filter : {"", "forward", "no such phase"}) {
    CAPTURE(filter);
    CHECK_FALSE(session->phase_table_current(filter));
    const uint32_t levels = session->phase_depth_levels(filter);
    session->phase_table(filter);
    session->wait_settled();
    REQUIRE(session->phase_table_current(filter));
    const PhaseTable* table = session->phase_table(filter);
    REQUIRE(table != nullptr);
    CHECK(levels == levels_of(*table));
    CHECK(session->phase_depth_levels(filter) == levels);
  }
  CHECK(session->phase_depth_levels("") > 0);  // the generated loop's phases
  CHECK(session->phase_depth_levels("no such phase") == 0);
}

TEST_CASE("session: a fresh pickle's annotations come with its early document, as its database keeps them") {
  TempDir dir;
  const test::CacheHome home(dir / "xdg");
  gen::GenOptions options;
  options.events = 3000;
  options.seed = 6;
  options.devices = 2;
  const fs::path pickle = dir / "fresh.pickle";
  test::write_generated(pickle, options);
  LoadProgress progress;
  std::unique_ptr<Document> early;
  const auto returned =
      open_document_early(pickle.string(), progress, [&](std::unique_ptr<Document> document) {
        CHECK(document->pending_database->state() == PendingDatabase::State::Writing);
        early = std::move(document);
      });
  CHECK(returned == nullptr);
  REQUIRE(early != nullptr);
  REQUIRE(early->annotations != nullptr);  // taken from the snapshot at the hand-over
  const std::vector<AnnotationRecord> stored = read_db_annotations(early->elements_db().string());
  REQUIRE(early->annotations->size() == stored.size());
  CHECK_FALSE(stored.empty());
  for (size_t i = 0; i < stored.size(); ++i) {
    CAPTURE(i);
    const AnnotationRecord& mine = (*early->annotations)[i];
    CHECK(mine.stage == stored[i].stage);
    CHECK(mine.name == stored[i].name);
    CHECK(mine.device == stored[i].device);
    CHECK(mine.time_us == stored[i].time_us);
  }
  const auto* annotations = early->annotations.get();
  Session session(std::move(early), {});
  CHECK(session.annotations() == annotations);  // held from the start, not read again
  CHECK(session.phase_depth_levels("") > 0);
  session.phase_table("");
  session.wait_settled();
  REQUIRE(session.phase_table("") != nullptr);
  CHECK(session.phase_depth_levels("") == levels_of(*session.phase_table("")));
}

TEST_CASE("session: switching timeline keeps the moment, switching device rebuilds its history") {
  TempDir dir;
  const fs::path converted = converted_snapshot(dir, "two", 5, 2);
  auto session = Session::open(converted.string());
  REQUIRE(session->document()->devices.size() == 2);
  session->wait_settled();
  const Timeline& blocks = *session->timeline();
  session->cursor.place(blocks, peak_state(blocks));
  session->select(0);
  CHECK(session->details().has_value());

  session->select_kind(TimelineKind::Segments);
  CHECK(session->timeline() == &session->device()->segments);
  CHECK(session->cursor.placed());  // remapped onto the segments timeline
  CHECK_FALSE(session->selected().has_value());

  const int other = session->document()->devices.back().device;
  session->select_device(other);
  CHECK(session->settings.device == other);
  // A newly shown device opens at its peak, like a newly opened file (settings.cursor_at_peak).
  REQUIRE(session->cursor.placed());
  CHECK(session->cursor.state() == peak_state(*session->timeline()));
  session->settings.cursor_at_peak = false;
  session->select_device(session->document()->devices.front().device);
  CHECK_FALSE(session->cursor.placed());
  CHECK(session->allocator_history() == nullptr);  // the old device's is gone at once
  session->wait_settled();
  REQUIRE(session->allocator_history() != nullptr);
}

TEST_CASE("session: closing while background work runs cancels it and frees everything") {
  TempDir dir;
  const fs::path converted = converted_snapshot(dir, "close", 9);
  for (int round = 0; round < 3; ++round) {
    auto session = Session::open(converted.string());
    session->phase_table("");
    if (round == 1) session->poll();
    session.reset();  // joins every thread it started (ASan/TSan would see a leak or a race)
  }
  CHECK(fs::exists(converted / "elements.db"));
}

TEST_CASE("session: two sessions at once give independent results") {
  TempDir dir;
  const fs::path small = converted_snapshot(dir, "a", 11);
  const fs::path other = converted_snapshot(dir, "b", 12, 2);
  auto a = Session::open(small.string());
  auto b = Session::open(other.string());
  a->wait_settled();
  b->wait_settled();
  CHECK(a->document()->devices.size() == 1);
  CHECK(b->document()->devices.size() == 2);
  a->cursor.place(*a->timeline(), peak_state(*a->timeline()));
  b->cursor.place(*b->timeline(), peak_state(*b->timeline()));
  const auto analysis_a = a->analysis_now({});
  const auto analysis_b = b->analysis_now({});
  REQUIRE(analysis_a != nullptr);
  REQUIRE(analysis_b != nullptr);
  CHECK(analysis_a->top_down.total_bytes() == a->timeline()->peak_bytes());
  CHECK(analysis_b->top_down.total_bytes() == b->timeline()->peak_bytes());
  CHECK(a->stack_catalog() != b->stack_catalog());
  // Closing one leaves the other whole.
  a.reset();
  b->select_kind(TimelineKind::Segments);
  b->wait_settled();
  CHECK(b->timeline() != nullptr);
  CHECK(b->allocator_history() != nullptr);
}

namespace {

// A converted snapshot opened as if its conversion were still writing elements.db: the session
// must not touch the database until `pending` says it is there.
struct PendingSession {
  PendingSession(const std::string& name, uint64_t seed) : converted(converted_snapshot(dir, name, seed)) {
    LoadProgress progress;
    auto document = open_document(converted.string(), progress);
    document->pending_database = pending;
    session = std::make_unique<Session>(std::move(document), [this] { ++wakes; });
  }
  TempDir dir;
  fs::path converted;
  std::shared_ptr<PendingDatabase> pending = std::make_shared<PendingDatabase>();
  std::atomic<int> wakes{0};
  std::unique_ptr<Session> session;
};

}  // namespace

TEST_CASE("session: before its database lands the chart is there, and the panels fill in once it does") {
  PendingSession opened("pending", 5);
  const auto& session = opened.session;
  PendingDatabase& pending = *opened.pending;
  REQUIRE(session->timeline() != nullptr);
  CHECK(session->timeline()->element_count() > 0);
  CHECK(session->database_writing());
  CHECK_FALSE(session->database_settled());
  const uint32_t elem = 0;
  session->select(elem);
  CHECK_FALSE(session->details().has_value());  // nothing read yet
  CHECK(session->background_busy());
  CHECK_FALSE(session->settled());
  CHECK_FALSE(session->poll());
  CHECK(session->stack_catalog() == nullptr);
  CHECK(session->allocator_history() == nullptr);
  CHECK(session->error().empty());

  pending.finish();
  CHECK(opened.wakes.load() >= 1);  // the viewer is woken to poll
  CHECK(session->result_waiting());
  CHECK(session->poll());
  CHECK(session->database_settled());
  CHECK_FALSE(session->database_writing());
  CHECK(session->database_generation() == 1);
  REQUIRE(session->details().has_value());  // the selection made before is filled in
  CHECK(session->details()->elem == elem);
  session->wait_settled();
  CHECK(session->stack_catalog() != nullptr);
  CHECK(session->annotations() != nullptr);
  CHECK(session->allocator_history() != nullptr);
  CHECK(session->error().empty());
}

TEST_CASE("session: a database that fails after the chart leaves the chart and says why") {
  PendingSession opened("failing", 6);
  const auto& session = opened.session;
  PendingDatabase& pending = *opened.pending;
  pending.fail("elements.db: disk full");
  CHECK(session->poll());
  CHECK(session->error() == "details unavailable: elements.db: disk full");
  CHECK(session->timeline() != nullptr);
  session->wait_settled();  // nothing waits for a database that will not come
  CHECK(session->stack_catalog() == nullptr);
  session->select(0);
  CHECK_FALSE(session->details().has_value());
}

TEST_CASE("session: analysis_now and the allocator history wait for a pending database") {
  PendingSession opened("waits", 7);
  const auto& session = opened.session;
  PendingDatabase& pending = *opened.pending;
  session->cursor.place(*session->timeline(), peak_state(*session->timeline()));
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    pending.finish();
  });
  const auto analysis = session->analysis_now({});
  writer.join();
  REQUIRE(analysis != nullptr);
  CHECK(analysis->moment.live_bytes > 0);
  session->wait_allocator_history();
  CHECK(session->allocator_history() != nullptr);
}

TEST_CASE("session: a history the conversion offered for the shown device is used, reading elements.db") {
  PendingSession opened("offered", 6);
  const auto& session = opened.session;
  const int device = session->settings.device;
  const std::string db = (opened.converted / "elements.db").string();
  std::shared_ptr<AllocatorHistory> offered = allocator_history_from_db(db, device);
  opened.pending->offer_history(device + 1, allocator_history_from_db(db, device));  // not shown
  opened.pending->offer_history(device, offered);
  opened.pending->finish();
  session->wait_settled();
  CHECK(session->allocator_history() == offered.get());    // not built again
  CHECK(opened.pending->take_history(device) == nullptr);  // taken once
  const auto rebuilt = allocator_history_from_db(db, device);
  for (size_t position = 0; position <= rebuilt->event_count(); position += 101) {
    REQUIRE(session->allocator_history()->at_position(position) == rebuilt->at_position(position));
  }
}

TEST_CASE("session: the converter's catalog from memory gives categories before the database lands") {
  PendingSession opened("early", 8);
  Session& session = *opened.session;
  const Snapshot snapshot = read_snapshot((opened.dir / "early.pickle").string());
  CHECK_FALSE(session.poll());
  CHECK(session.stack_catalog() == nullptr);
  const int wakes = opened.wakes.load();
  opened.pending->offer_early_indexes(
      {catalog_from_snapshot(snapshot), trace_overflow_warning(*snapshot.allocator_settings)});
  CHECK(opened.wakes.load() == wakes + 1);  // the viewer is woken to take them
  CHECK(session.poll());
  REQUIRE(session.stack_catalog() != nullptr);
  REQUIRE(test::poll_for_categories(session));
  CHECK(session.database_writing());  // all of it before the database
  CHECK_FALSE(session.findings().empty());
  const std::shared_ptr<const StackCatalog> early_catalog = session.stack_catalog();
  const std::vector<CategoryId> early_categories = session.categories()->classification.categories;
  const std::vector<std::string> early_findings = test::finding_lines(session.findings());

  // The same as a session that read them from the database.
  LoadProgress progress;
  Session reference(open_document(opened.converted.string(), progress), {});
  reference.wait_settled();
  REQUIRE(reference.categories() != nullptr);
  CHECK(early_categories == reference.categories()->classification.categories);
  CHECK(early_findings == test::finding_lines(reference.findings()));
  const StackCatalog& from_db = *reference.stack_catalog();
  CHECK(early_catalog->string_count() == from_db.string_count());
  CHECK(early_catalog->frame_count() == from_db.frame_count());
  for (StackId stack = 0; stack < early_catalog->stack_count(); ++stack) {
    const auto a = early_catalog->stack_frames(stack);
    const auto b = from_db.stack_frames(stack);
    REQUIRE(std::equal(a.begin(), a.end(), b.begin(), b.end()));
  }

  // Once the database lands, the catalog is kept rather than read again.
  opened.pending->finish();
  session.wait_settled();
  CHECK(session.stack_catalog() == early_catalog);
  CHECK(session.categories()->classification.categories == early_categories);
  CHECK(session.allocator_history() != nullptr);
  CHECK(session.error().empty());
  CHECK_FALSE(opened.pending->take_early_indexes().has_value());  // taken once
}

TEST_CASE("session: exports are written in the background at the cursor, their outcome taken by poll") {
  TempDir dir;
  const fs::path converted = converted_snapshot(dir, "export", 5);
  auto session = Session::open(converted.string());
  session->wait_settled();
  const Timeline& timeline = *session->timeline();
  const size_t moment = state_after_event(timeline, timeline.action_event(timeline.action_count() / 2));
  session->cursor.place(timeline, moment);
  CHECK(session->export_request(ExportFormat::MomentCsv).state == moment);

  session->start_export(ExportFormat::MomentCsv, (dir / "moment.csv").string());
  CHECK(session->export_message().starts_with("exporting moment-csv to "));
  CHECK(session->background_busy());
  session->wait_settled();
  CHECK_FALSE(session->export_running());
  CHECK(session->export_message() == "exported moment-csv to " + (dir / "moment.csv").string());
  CHECK(test::read_file(dir / "moment.csv").starts_with("bytes,cumulative_bytes,"));

  // A failing export's one line arrives the same way; nothing is written.
  session->start_export(ExportFormat::MomentCsv, (dir / "missing" / "moment.csv").string());
  session->wait_settled();
  CHECK(session->export_message().find("missing") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "missing"));
  CHECK_THROWS(session->run_export(ExportFormat::MomentCsv, (dir / "missing" / "x.csv").string()));
  session->run_export(ExportFormat::TreeCsv, (dir / "tree.csv").string());
  CHECK(session->export_message() == "exported tree-csv to " + (dir / "tree.csv").string());
}

TEST_CASE("session: the cursor's module tree is built in the background and equals the core's") {
  TempDir dir;
  const fs::path converted = converted_snapshot(dir, "modules", 11);
  auto session = Session::open(converted.string());
  session->wait_settled();
  const Timeline& blocks = *session->timeline();
  session->cursor.place(blocks, peak_state(blocks));
  CHECK(session->module_tree() == nullptr);  // asked for: the module placement comes first
  CHECK_FALSE(session->module_tree_current());
  session->wait_settled();
  REQUIRE(session->module_tree_current());
  const SessionModuleTree* shown = session->module_tree();
  REQUIRE(shown != nullptr);
  CHECK(session->module_tree_error().empty());
  CHECK(shown->blocks == &blocks);
  CHECK(shown->tree.state == peak_state(blocks));
  CHECK(shown->tree.live_bytes == blocks.peak_bytes());
  uint64_t top = 0;
  for (const ModuleRow& row : shown->tree.rows) top += row.depth == 0 ? row.bytes : 0;
  CHECK(top == blocks.peak_bytes());

  // The same tree from the core alone (no forward stacks in generated traces by default).
  const auto catalog = catalog_from_elements_db((converted / "elements.db").string());
  const ModuleInstances modules(blocks.input().elements, *catalog);
  const ModuleTree core =
      build_module_tree(live_elements(blocks, peak_state(blocks)), modules, peak_state(blocks));
  REQUIRE(core.rows.size() == shown->tree.rows.size());
  for (size_t i = 0; i < core.rows.size(); ++i) {
    CHECK(core.rows[i].path == shown->tree.rows[i].path);
    CHECK(core.rows[i].bytes == shown->tree.rows[i].bytes);
    CHECK(core.rows[i].count == shown->tree.rows[i].count);
  }
  // The generator's model calls modules: some live memory sits below a module call.
  CHECK(std::any_of(core.rows.begin(), core.rows.end(), [](const ModuleRow& row) { return row.depth > 0; }));

  // A row's members are its live allocations, their sizes its bytes.
  const ModuleRow& first = shown->tree.rows.front();
  uint64_t member_bytes = 0;
  for (uint32_t elem : module_members(shown->live, shown->modules->instances, first.node))
    member_bytes += blocks.element(elem).size;
  CHECK(member_bytes == first.bytes);

  // The cursor moves: module_tree_now waits for the new state's tree.
  session->cursor.place(blocks, peak_state(blocks) - 5);
  const SessionModuleTree* moved = session->module_tree_now();
  REQUIRE(moved != nullptr);
  CHECK(moved->tree.state == peak_state(blocks) - 5);
  CHECK(moved->tree.live_bytes == blocks.total_at_state(peak_state(blocks) - 5));

  // The segments timeline's cursor is mapped to the blocks state of the same event.
  session->select_kind(TimelineKind::Segments);
  const SessionModuleTree* mapped = session->module_tree_now();
  REQUIRE(mapped != nullptr);
  CHECK(mapped->blocks == &session->device()->blocks);
  CHECK(mapped->tree.live_bytes == blocks.total_at_state(mapped->tree.state));
}

TEST_CASE("session: closing while the module placement is built cancels it") {
  TempDir dir;
  const fs::path converted = converted_snapshot(dir, "modules-close", 12);
  auto session = Session::open(converted.string());
  session->cursor.place(*session->timeline(), peak_state(*session->timeline()));
  session->module_tree();
  session->poll();
  session.reset();
  CHECK(fs::exists(converted / "elements.db"));
}
