// The conversion cache ($XDG_CACHE_HOME/snapscope/<key>/): LRU eviction under a size cap, a
// tampered or truncated entry converted again, and two viewers converting the same file at once.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/allocator/db_event_source.h"
#include "core/document/cache_entry_check.h"
#include "core/document/content_key.h"
#include "core/document/conversion_cache.h"
#include "core/document/document.h"
#include "core/document/document_loader.h"
#include "core/document/folders.h"
#include "core/store/elements_db/sqlite_handle.h"
#include "unit/support/cache_home.h"
#include "unit/support/replay_checks.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;
using snapscope::test::CacheHome;
using snapscope::test::FreshPickle;
using snapscope::test::TempDir;
namespace fs = std::filesystem;

namespace {

// open_document_early's one-line error ("" if it did not throw); `called`: a document came early.
std::string early_open_error(const fs::path& pickle, LoadProgress& progress, bool& called) {
  try {
    open_document_early(pickle.string(), progress, [&](std::unique_ptr<Document>) { called = true; });
  } catch (const std::exception& failure) {
    return failure.what();
  }
  return {};
}

fs::path make_entry(const fs::path& root, const std::string& name, size_t bytes, int age_s) {
  fs::create_directories(root / name);
  test::write_file(root / name / "elements.db", std::string(bytes, 'x'));
  fs::last_write_time(root / name, fs::file_time_type::clock::now() - std::chrono::seconds(age_s));
  return root / name;
}

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// What the cache holds besides the content-key memo: its entries and any staging directory.
std::vector<std::string> cache_entries() {
  std::vector<std::string> names = names_in(cache_root());
  std::erase(names, std::string(kContentKeyMemoDir));
  return names;
}

std::unique_ptr<Document> open_path(const fs::path& path) {
  LoadProgress progress;
  return open_document(path.string(), progress);
}

}  // namespace

TEST_CASE("conversion cache: least recently used entries go first, never the open one or a staging dir") {
  TempDir dir;
  const fs::path root = dir / "cache";
  const fs::path oldest = make_entry(root, "a", 1000, 300);
  make_entry(root, "b", 1000, 200);
  make_entry(root, "c", 1000, 100);
  make_entry(root, ".d.tmp-123456", 5000, 400);
  const std::vector<fs::path> removed = evict_cache(root, 2000, oldest);
  CHECK(removed == std::vector<fs::path>{root / "b"});
  CHECK(names_in(root) == std::vector<std::string>{".d.tmp-123456", "a", "c"});
  CHECK(evict_cache(root, 2000, oldest).empty());  // already fits
  CHECK(evict_cache(root, 0, oldest) == std::vector<fs::path>{root / "c"});
}

TEST_CASE("conversion cache: the cap comes from SNAPSCOPE_CACHE_MAX") {
  unsetenv("SNAPSCOPE_CACHE_MAX");
  CHECK(cache_cap_bytes() == kDefaultCacheCapBytes);
  setenv("SNAPSCOPE_CACHE_MAX", "512MiB", 1);
  CHECK(cache_cap_bytes() == uint64_t{512} << 20);
  setenv("SNAPSCOPE_CACHE_MAX", "lots", 1);
  CHECK(cache_cap_bytes() == kDefaultCacheCapBytes);
  unsetenv("SNAPSCOPE_CACHE_MAX");
}

TEST_CASE("conversion cache: a truncated or tampered entry is converted again") {
  const FreshPickle fresh;
  const fs::path& pickle = fresh.pickle;
  const fs::path entry = open_path(pickle)->directory;
  REQUIRE(entry.parent_path() == cache_root());
  const std::string layout = test::read_file(entry / "allocations.json.zst");

  fs::resize_file(entry / "allocations.json.zst", layout.size() / 2);
  CHECK(open_path(pickle)->directory == entry);
  CHECK(test::read_file(entry / "allocations.json.zst") == layout);

  {
    SqliteDatabase db((entry / "elements.db").string(), SqliteDatabase::Mode::Create);
    db.exec("CREATE VIEW planted AS SELECT 1");
  }
  CHECK(open_path(pickle)->devices.size() == 2);
  CHECK(test::read_file(entry / "allocations.json.zst") == layout);
  CHECK(cache_entries() == std::vector<std::string>{entry.filename().string()});
}

TEST_CASE("conversion cache: another snapshot's entry, a symlink or a FIFO in its place is converted again") {
  const FreshPickle fresh;
  const fs::path& pickle = fresh.pickle;
  const fs::path entry = open_path(pickle)->directory;
  const std::string layout = test::read_file(entry / "allocations.json.zst");
  // Another snapshot (one device, another size) converted into the same cache.
  test::FixtureSnapshot other_snapshot;
  other_snapshot.traces = {{{"alloc", 0x1000, 4096, 1, {{"f", "f.py", 1}}, "", 0}}};
  test::write_file(fresh.dir / "other.pickle", test::pickle_bytes(other_snapshot));
  const fs::path other = open_path(fresh.dir / "other.pickle")->directory;
  REQUIRE(other != entry);
  const auto reopened_is_ours = [&] {
    const auto document = open_path(pickle);
    CHECK(document->devices.size() == 2);
    CHECK(document->directory == entry);
    CHECK(!fs::is_symlink(entry));
    CHECK(test::read_file(entry / "allocations.json.zst") == layout);
  };

  fs::remove_all(entry);
  fs::copy(other, entry, fs::copy_options::recursive);  // a real directory, the wrong snapshot
  reopened_is_ours();

  fs::remove_all(entry);
  fs::create_directory_symlink(other, entry);  // a symlink to another valid entry
  reopened_is_ours();

  fs::remove_all(entry);
  fs::create_directories(fresh.dir / "unrelated");
  test::write_file(fresh.dir / "unrelated" / "keep.txt", "mine");
  fs::create_directory_symlink(fresh.dir / "unrelated", entry);  // never followed, never emptied
  reopened_is_ours();
  CHECK(test::read_file(fresh.dir / "unrelated" / "keep.txt") == "mine");

  fs::remove(entry / "elements.db");
  REQUIRE(::mkfifo((entry / "elements.db").c_str(), 0600) == 0);  // must not hang the open
  reopened_is_ours();
  CHECK(open_path(fresh.dir / "other.pickle")->devices.size() == 1);
}

TEST_CASE("conversion cache: another snapshot's entry of the same size is converted again") {
  const FreshPickle fresh;
  const fs::path& pickle = fresh.pickle;
  // The same snapshot with one frame's file renamed: same size, other content, other key.
  std::string bytes = test::read_file(pickle);
  const size_t at = bytes.find("a.py");
  REQUIRE(at != std::string::npos);
  bytes.replace(at, 4, "z.py");
  const fs::path twin = fresh.dir / "twin.pickle";
  test::write_file(twin, bytes);
  REQUIRE(fs::file_size(twin) == fs::file_size(pickle));

  const fs::path entry = open_path(pickle)->directory;
  const fs::path twin_entry = open_path(twin)->directory;
  REQUIRE(twin_entry != entry);
  const std::string layout = test::read_file(entry / "allocations.json.zst");
  REQUIRE(layout != test::read_file(twin_entry / "allocations.json.zst"));
  CHECK(test::read_file(entry / kSourceKeyFileName).starts_with(entry.filename().string() + "\n"));
  CHECK(cache_entry_problem(entry, pickle.string()).empty());
  // A key memo tampered to map the pickle to its twin's entry: the sample key tells them apart.
  CHECK(cache_entry_problem(twin_entry, pickle.string()) == "converted from another file's content");

  fs::remove_all(entry);
  fs::copy(twin_entry, entry, fs::copy_options::recursive);  // passes the size check
  const auto reopened = open_path(pickle);
  CHECK(reopened->directory == entry);
  CHECK(test::read_file(entry / "allocations.json.zst") == layout);
  CHECK(cache_entry_problem(entry, pickle.string()).empty());
  CHECK(test::read_file(entry / kSourceKeyFileName) != test::read_file(twin_entry / kSourceKeyFileName));
}

TEST_CASE("conversion cache: two viewers converting the same file at once make one good entry") {
  const FreshPickle fresh;
  const fs::path& pickle = fresh.pickle;
  std::string errors[2];
  std::vector<std::thread> viewers;
  for (std::string& error : errors) {
    viewers.emplace_back([&] {
      try {
        open_path(pickle);
      } catch (const std::exception& e) {
        error = e.what();
      }
    });
  }
  for (std::thread& viewer : viewers) viewer.join();
  CHECK(errors[0].empty());
  CHECK(errors[1].empty());
  REQUIRE(cache_entries().size() == 1);  // no second entry, no staging directory left
  CHECK(open_path(pickle)->devices.size() == 2);
}

namespace {

// The same replay, and so the same chart.
void check_same_timeline(const Timeline& early, const Timeline& read_back) {
  test::check_same_replay(early.input(), read_back.input());
  CHECK(early.peak_bytes() == read_back.peak_bytes());
  CHECK(early.timesteps() == read_back.timesteps());
}

}  // namespace

TEST_CASE("conversion cache: a fresh pickle's document comes before its database, then the entry is whole") {
  const FreshPickle fresh;
  const fs::path& pickle = fresh.pickle;
  LoadProgress progress;
  std::unique_ptr<Document> early;
  bool database_there_at_hand_over = true;
  PendingDatabase::State state_at_hand_over = PendingDatabase::State::Ready;
  const auto returned =
      open_document_early(pickle.string(), progress, [&](std::unique_ptr<Document> document) {
        REQUIRE(document->pending_database != nullptr);
        state_at_hand_over = document->pending_database->state();
        database_there_at_hand_over = fs::exists(document->directory / "elements.db");
        early = std::move(document);
      });
  CHECK(returned == nullptr);  // the document went to the callback
  REQUIRE(early != nullptr);
  CHECK(state_at_hand_over == PendingDatabase::State::Writing);
  CHECK_FALSE(database_there_at_hand_over);  // the cache entry is renamed into place at the end
  CHECK(progress.converted);
  CHECK(early->pending_database->state() == PendingDatabase::State::Ready);
  CHECK(early->opened_path == pickle.string());
  CHECK(fs::exists(early->directory / "elements.db"));
  CHECK(fs::exists(early->directory / "allocations.json.zst"));
  CHECK(cache_entries() == std::vector<std::string>{early->directory.filename().string()});
  // The entry is named by the content key, hashed while the pickle was read, and remembered.
  CHECK(early->directory == conversion_cache_dir(pickle));
  CHECK(remembered_content_key(pickle, cache_root() / kContentKeyMemoDir) == file_content_key(pickle));

  // The first device's allocator history was built from the events in memory, for the session
  // to take once; it reads elements.db once given it, as one built from there.
  CHECK(progress.stages.format().find("allocator history (from memory)") != std::string::npos);
  const int first = early->devices.front().device;
  const std::shared_ptr<AllocatorHistory> offered = early->pending_database->take_history(first);
  REQUIRE(offered != nullptr);
  CHECK(early->pending_database->take_history(first) == nullptr);
  const std::string db = (early->directory / "elements.db").string();
  const auto from_db = allocator_history_from_db(db, first);
  REQUIRE(offered->event_count() == from_db->event_count());
  CHECK_THROWS_AS(offered->at_position(1), std::logic_error);  // between checkpoints: no events yet
  REQUIRE(offered->replace_events(std::make_unique<DbEventSource>(db, first)));
  for (size_t position = 0; position <= from_db->event_count(); position += 53) {
    REQUIRE(offered->at_position(position) == from_db->at_position(position));
  }

  // The same timelines as the cache entry gives when it is opened again.
  const auto read_back = open_path(pickle);
  CHECK(read_back->pending_database == nullptr);
  CHECK(read_back->directory == early->directory);
  REQUIRE(read_back->devices.size() == early->devices.size());
  for (size_t i = 0; i < early->devices.size(); ++i) {
    CHECK(early->devices[i].device == read_back->devices[i].device);
    CHECK(early->devices[i].has_time == read_back->devices[i].has_time);
    check_same_timeline(early->devices[i].blocks, read_back->devices[i].blocks);
    check_same_timeline(early->devices[i].segments, read_back->devices[i].segments);
  }

  // A cache hit (or a directory) has nothing to hand over early: it is opened as before.
  bool called = false;
  const auto hit =
      open_document_early(pickle.string(), progress, [&](std::unique_ptr<Document>) { called = true; });
  CHECK_FALSE(called);
  REQUIRE(hit != nullptr);
  CHECK(hit->pending_database == nullptr);
}

TEST_CASE("conversion cache: a renamed copy of a converted pickle opens the same entry, not a second") {
  const FreshPickle fresh;
  const auto first = open_path(fresh.pickle);
  const fs::path copy = fresh.dir / "renamed.pickle";
  fs::copy_file(fresh.pickle, copy);
  CHECK_FALSE(remembered_content_key(copy, cache_root() / kContentKeyMemoDir).has_value());  // a new file

  // Its key is hashed while it is being converted: found existing, that conversion is dropped
  // (or, when the read wins the race, its finished entry gives way to the existing one).
  LoadProgress progress;
  std::unique_ptr<Document> early;
  auto opened = open_document_early(copy.string(), progress,
                                    [&](std::unique_ptr<Document> document) { early = std::move(document); });
  if (!opened) opened = std::move(early);
  REQUIRE(opened != nullptr);
  CHECK(opened->directory == first->directory);
  CHECK(cache_entries() == std::vector<std::string>{first->directory.filename().string()});
  CHECK(remembered_content_key(copy, cache_root() / kContentKeyMemoDir) == file_content_key(fresh.pickle));
}

TEST_CASE("conversion cache: a bad pickle fails before any early document, and leaves no entry") {
  TempDir dir;
  const CacheHome home(dir / "xdg");
  const fs::path pickle = dir / "bad.pickle";
  test::write_file(pickle, "\x80\x02not a pickle");
  LoadProgress progress;
  bool called = false;
  const std::string error = early_open_error(pickle, progress, called);
  CHECK(error.starts_with(pickle.string() + ": "));
  CHECK(error.find('\n') == std::string::npos);
  CHECK_FALSE(called);
  CHECK((!fs::exists(cache_root()) || cache_entries().empty()));
}

TEST_CASE("conversion cache: a load cancelled while the pickle is read stops and leaves no entry") {
  const FreshPickle fresh;
  const fs::path& pickle = fresh.pickle;
  LoadProgress progress;
  progress.cancel = true;  // the viewer closed before the first bytes were read
  bool called = false;
  const std::string error = early_open_error(pickle, progress, called);
  CHECK(error == "load cancelled");
  CHECK_FALSE(called);
  CHECK((!fs::exists(cache_root()) || cache_entries().empty()));  // no entry, no staging dir
  // The hash beside the read stopped too: nothing was remembered for the file.
  CHECK_FALSE(remembered_content_key(pickle, cache_root() / kContentKeyMemoDir).has_value());
}

TEST_CASE("conversion cache: hashing stops when asked, between chunks") {
  const FreshPickle fresh;
  std::atomic<bool> cancel{true};
  CHECK_THROWS_AS(file_content_key(fresh.pickle, &cancel), HashCancelled);
  CHECK_THROWS_AS(memoized_content_key(fresh.pickle, cache_root() / kContentKeyMemoDir, &cancel),
                  HashCancelled);
  cancel = false;
  CHECK(file_content_key(fresh.pickle, &cancel) == file_content_key(fresh.pickle));
}

namespace {

DocumentLoader::Result wait_for_result(DocumentLoader& loader) {
  for (;;) {
    if (auto result = loader.take_result()) return std::move(*result);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace

TEST_CASE("document loader: a fresh pickle's document comes first; the next load waits for its database") {
  const FreshPickle fresh;
  const fs::path& pickle = fresh.pickle;
  DocumentLoader loader;
  std::atomic<int> results{0};
  loader.set_result_callback([&] { ++results; });
  CHECK(loader.running_seconds() == 0);
  REQUIRE(loader.start(pickle.string()));
  CHECK_FALSE(loader.start(pickle.string()));  // one load at a time
  while (!loader.has_result()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  CHECK(results.load() == 1);  // the callback ran when the result was posted
  CHECK(loader.running_seconds() > 0);
  DocumentLoader::Result first = wait_for_result(loader);
  CHECK_FALSE(loader.has_result());
  CHECK(loader.running_seconds() == 0);
  REQUIRE(first.document != nullptr);
  REQUIRE(first.document->pending_database != nullptr);
  CHECK_FALSE(loader.busy());
  if (loader.finishing()) CHECK_FALSE(loader.start(pickle.string()));  // its database is being written
  first.document->pending_database->wait();
  CHECK(first.document->pending_database->state() == PendingDatabase::State::Ready);
  while (loader.finishing()) std::this_thread::sleep_for(std::chrono::milliseconds(1));

  REQUIRE(loader.start(pickle.string()));  // now a cache hit
  const DocumentLoader::Result second = wait_for_result(loader);
  REQUIRE(second.document != nullptr);
  CHECK(second.document->pending_database == nullptr);
  CHECK(second.document->directory == first.document->directory);
}

TEST_CASE("conversion cache: a pickle's content key is remembered while the file is unchanged") {
  const FreshPickle fresh;
  const fs::path memo_dir = cache_root() / kContentKeyMemoDir;
  const std::string key = file_content_key(fresh.pickle);
  CHECK(memoized_content_key(fresh.pickle, memo_dir) == key);
  const std::vector<std::string> memos = names_in(memo_dir);
  REQUIRE(memos.size() == 1);  // one line for this file, no staging file left

  // The memo is what a second open reads: a planted key for the same identity is taken as is.
  const fs::path memo = memo_dir / memos.front();
  const std::string line = test::read_file(memo);
  const std::string planted = "0123456789abcdef" + key.substr(16);
  test::write_file(memo, line.substr(0, line.rfind(' ') + 1) + planted + "\n");
  CHECK(memoized_content_key(fresh.pickle, memo_dir) == planted);

  // A malformed memo is ignored and replaced.
  test::write_file(memo, "garbage\n");
  CHECK(memoized_content_key(fresh.pickle, memo_dir) == key);
  CHECK(test::read_file(memo) == line);

  // New contents of the same size, with the old modification time put back: the status-change
  // time still tells, so the file is hashed again.
  const auto modified = fs::last_write_time(fresh.pickle);
  std::string bytes = test::read_file(fresh.pickle);
  bytes[bytes.size() / 2] ^= 0x55;
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  test::write_file(fresh.pickle, bytes);
  fs::last_write_time(fresh.pickle, modified);
  const std::string changed = memoized_content_key(fresh.pickle, memo_dir);
  CHECK(changed != key);
  CHECK(changed == file_content_key(fresh.pickle));
}
