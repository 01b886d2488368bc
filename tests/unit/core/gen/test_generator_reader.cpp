// Generated snapshots (plain and gzip) read back through the product's snapshot reader.
#include <doctest/doctest.h>

#include <unistd.h>
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
