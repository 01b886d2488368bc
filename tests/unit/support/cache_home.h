// A conversion cache of the test's own: XDG_CACHE_HOME pointed at a directory for a scope, and a
// fresh pickle beside it.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

#include "unit/support/test_store_fixture.h"

namespace snapscope::test {

// Points XDG_CACHE_HOME at `dir` for the scope.
class CacheHome {
 public:
  explicit CacheHome(const std::filesystem::path& dir) {
    const char* old = std::getenv("XDG_CACHE_HOME");
    had_ = old != nullptr;
    if (had_) saved_ = old;
    setenv("XDG_CACHE_HOME", dir.c_str(), 1);
  }
  ~CacheHome() {
    if (had_) {
      setenv("XDG_CACHE_HOME", saved_.c_str(), 1);
    } else {
      unsetenv("XDG_CACHE_HOME");
    }
  }
  CacheHome(const CacheHome&) = delete;
  CacheHome& operator=(const CacheHome&) = delete;

 private:
  bool had_ = false;
  std::string saved_;
};

// A fresh pickle (the standard fixture) and an empty conversion cache, for one test.
struct FreshPickle {
  TempDir dir;
  CacheHome home{dir / "xdg"};
  std::filesystem::path pickle = write(dir / "s.pickle");
  static std::filesystem::path write(const std::filesystem::path& path) {
    write_file(path, pickle_bytes(standard_fixture()));
    return path;
  }
};

}  // namespace snapscope::test
