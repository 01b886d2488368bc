// Generated snapshots (plain and gzip) read back through the product's snapshot reader.
#include <doctest/doctest.h>

#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/gen/gzip_ostream.h"
#include "core/gen/snapshot_generator.h"
#include "core/snapshot/snapshot_reader.h"

namespace gen = snapscope::gen;
namespace fs = std::filesystem;

namespace {

fs::path temp_file(const std::string& name) {
  return fs::temp_directory_path() / ("snapscope-test-gen-" + std::to_string(::getpid()) + "-" + name);
}

gen::GenResult write_file(const fs::path& path, const gen::GenOptions& options, bool gzip) {
  std::ofstream file(path, std::ios::binary);
  if (!gzip) return gen::write_snapshot(options, file);
  gen::GzipOStream gz(file);
  const gen::GenResult result = gen::write_snapshot(options, gz);
  gz.finish();
  return result;
}

}  // namespace

TEST_CASE("generator output reads back with the snapshot reader, plain and gzip") {
  gen::GenOptions options;
  options.events = 4000;
  options.devices = 2;
  options.seed = 11;
  for (bool gzip : {false, true}) {
    CAPTURE(gzip);
    const fs::path path = temp_file(gzip ? "s.pickle.gz" : "s.pickle");
    const gen::GenResult written = write_file(path, options, gzip);
    const snapscope::Snapshot snapshot = snapscope::read_snapshot(path.string());
    fs::remove(path);

    REQUIRE(snapshot.device_traces.size() == 2);
    CHECK(snapshot.device_traces[0].events.size() + snapshot.device_traces[1].events.size() ==
          written.events);
    CHECK(snapshot.segments.size() == written.segments);
    CHECK(snapshot.devices() == std::vector<int>{0, 1});
    CHECK(!snapshot.annotations.empty());
    CHECK(snapshot.allocator_settings.is_object());
    const snapscope::TraceEvent& first = snapshot.device_traces[0].events.front();
    CHECK(first.time_us != snapscope::kNoTime);
    CHECK(snapshot.stacks.frames(first.stack).size() >= 20);
  }
}

TEST_CASE("generated pinned host memory reads back as the host device, agreeing with its segments") {
  gen::GenOptions options;
  options.events = 3000;
  options.seed = 4;
  options.host_batches = 80;
  const fs::path path = temp_file("host.pickle");
  const gen::GenResult written = write_file(path, options, false);
  const snapscope::Snapshot snapshot = snapscope::read_snapshot(path.string());
  fs::remove(path);

  CHECK(snapshot.devices() == std::vector<int>{0, snapscope::kHostDevice});
  const auto& host_events = snapshot.device_traces.at(snapscope::kHostDevice).events;
  CHECK(snapshot.device_traces[0].events.size() + host_events.size() == written.events);
  // 80 batches: an alloc each, and a free_requested + free_completed for all but the 2 in flight.
  CHECK(std::count_if(host_events.begin(), host_events.end(),
                      [](const auto& e) { return e.action == snapscope::Action::Alloc; }) == 80);
  CHECK(std::count_if(host_events.begin(), host_events.end(),
                      [](const auto& e) { return e.action == snapscope::Action::FreeCompleted; }) == 78);

  // What the trace leaves allocated is what the host segments hold as active_allocated.
  uint64_t live = 0;
  for (const auto& e : host_events) {
    if (e.action == snapscope::Action::Alloc) live += e.size;
    if (e.action == snapscope::Action::FreeCompleted) live -= e.size;
  }
  uint64_t active = 0;
  for (const snapscope::Segment& segment : snapshot.segments) {
    if (segment.device != snapscope::kHostDevice) continue;
    for (uint32_t b = segment.first_block; b < segment.first_block + segment.block_count; ++b)
      if (snapshot.blocks[b].state == snapscope::BlockState::ActiveAllocated)
        active += snapshot.blocks[b].size;
  }
  CHECK(live == active);
  CHECK(live > 0);
}
