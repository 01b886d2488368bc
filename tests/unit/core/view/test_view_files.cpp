#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/document/content_key.h"
#include "core/document/folders.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/view/recent_files.h"

using namespace snapscope;
namespace fs = std::filesystem;

namespace {

// A fresh directory under the system temp dir, removed at scope exit.
struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("snapscope-view-test-" + std::to_string(std::rand()));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

void write_file(const fs::path& path, const std::string& contents) {
  std::ofstream(path, std::ios::binary) << contents;
}

}  // namespace

TEST_CASE("recent files: most recent first, no duplicates, bounded, persisted") {
  TempDir dir;
  const fs::path storage = dir.path / "config" / "recent.txt";
  RecentFiles recent(storage, 3);
  recent.add("/a");
  recent.add("/b");
  recent.add("/a");
  CHECK(recent.entries() == std::vector<std::string>{"/a", "/b"});
  recent.add("/c");
  recent.add("/d");
  CHECK(recent.entries() == std::vector<std::string>{"/d", "/c", "/a"});
  recent.save();
  RecentFiles reloaded(storage, 3);
  reloaded.load();
  CHECK(reloaded.entries() == recent.entries());
  reloaded.remove("/c");
  CHECK(reloaded.entries() == std::vector<std::string>{"/d", "/a"});
  RecentFiles missing(dir.path / "nope.txt");
  missing.load();
  CHECK(missing.entries().empty());
}

TEST_CASE("recent files are stored as absolute paths, so they open from any directory") {
  TempDir dir;
  RecentFiles recent(dir.path / "recent.txt");
  recent.add("assets/../assets/demo.pickle");
  REQUIRE(recent.entries().size() == 1);
  const fs::path stored = recent.entries().front();
  CHECK(stored.is_absolute());
  CHECK(stored == fs::current_path() / "assets" / "demo.pickle");
  recent.add((fs::current_path() / "assets" / "demo.pickle").string());  // the same file: no duplicate
  CHECK(recent.entries().size() == 1);
}

TEST_CASE("content keys depend on contents only") {
  TempDir dir;
  write_file(dir.path / "one.pickle", "hello snapshot");
  write_file(dir.path / "copy.pickle", "hello snapshot");
  write_file(dir.path / "other.pickle", "hello snapshoT");
  const std::string key = file_content_key(dir.path / "one.pickle");
  CHECK(key == file_content_key(dir.path / "copy.pickle"));
  CHECK(key != file_content_key(dir.path / "other.pickle"));
  CHECK(key.ends_with("-14"));
  CHECK(key.size() == 16 + 3);
  CHECK_THROWS_AS(file_content_key(dir.path / "absent.pickle"), InputError);
  // Every byte position matters, including inside the 32-byte lanes.
  std::string big(100, 'x');
  const uint64_t base = content_hash(big.data(), big.size(), 0);
  for (size_t i = 0; i < big.size(); ++i) {
    std::string changed = big;
    changed[i] = 'y';
    CHECK(content_hash(changed.data(), changed.size(), 0) != base);
  }
}

TEST_CASE("XDG directories") {
  const char* old_cache = std::getenv("XDG_CACHE_HOME");
  const std::string saved = old_cache != nullptr ? old_cache : "";
  setenv("XDG_CACHE_HOME", "/tmp/xdg-cache", 1);
  CHECK(cache_root() == fs::path("/tmp/xdg-cache/snapscope"));
  setenv("XDG_CACHE_HOME", "relative/ignored", 1);
  CHECK(cache_root().string().ends_with(".cache/snapscope"));
  if (old_cache != nullptr) {
    setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  } else {
    unsetenv("XDG_CACHE_HOME");
  }
  CHECK(config_root().filename() == "snapscope");
}
