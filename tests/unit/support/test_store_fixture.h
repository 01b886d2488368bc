// Small snapshot pickles written in-process with PickleWriter, and per-test temp
// directories, for the store / convert / CLI tests.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace snapscope::test {

struct FixtureFrame {
  std::string name, filename;
  int64_t line = 0;
};

struct FixtureEvent {
  std::string action;
  uint64_t addr = 0, size = 0;
  int64_t time_us = -1;  // < 0: no time_us key
  std::vector<FixtureFrame> frames;
  std::string compile_context;  // empty: no key
  uint64_t stream = 0;
};

struct FixtureBlock {
  uint64_t size = 0, requested_size = 0;
  std::string state = "active_allocated";
};

struct FixtureSegment {
  int device = 0;
  uint64_t address = 0, total_size = 0;
  std::vector<FixtureBlock> blocks;
  int64_t pool_id[2] = {0, 0};  // segment_pool_id: (0, 0) is the default pool
};

struct FixtureSnapshot {
  std::vector<std::vector<FixtureEvent>> traces;  // index = device
  std::vector<FixtureSegment> segments;
  bool with_allocator_settings = false;
  bool trace_overflowed = false;  // allocator_settings also say the trace ring buffer wrapped
};

// Two devices. Device 0: allocs A (0x1000, 100 B, frames alloc_a <- main), B (0x2000, 200 B),
// a free_requested+free_completed of A, a free of X (0x9000, 50 B) never allocated in the trace,
// alloc C (0x3000, 300 B) and a segment_alloc; its segment has one active block (512 B,
// requested 500) never seen in the trace. Device 1: alloc + free of one 64 B block.
FixtureSnapshot standard_fixture();

std::string pickle_bytes(const FixtureSnapshot& snapshot);
void write_file(const std::filesystem::path& path, const std::string& bytes);
std::string read_file(const std::filesystem::path& path);

// A fresh directory under the system temp dir, removed with everything in it at scope exit.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  std::vector<std::string> entries() const { return entries_of(path_); }
  static std::vector<std::string> entries_of(const std::filesystem::path& dir);  // names inside, sorted

 private:
  std::filesystem::path path_;
};

}  // namespace snapscope::test
