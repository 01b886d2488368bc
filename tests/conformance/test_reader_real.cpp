// Reads every real snapshot in $SNAPSCOPE_SNAPSHOT_DIR and checks the reader against the
// memory_viz reference (<name>.memviz.json): event counts, raw action counts, segment counts
// and top-level keys. A missing or empty directory is a failure, never a skip.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "core/snapshot/snapshot_reader.h"
#include "real_snapshots.h"

namespace fs = std::filesystem;
using namespace snapscope::conformance;
using namespace snapscope;

namespace {

std::string action_label(const TraceEvent& e, const Snapshot& s) {
  return e.action() == Action::Unknown ? std::string(s.strings.view(s.rare_of(e).unknown_action))
                                       : std::string(action_name(e.action()));
}

void check_against_reference(const fs::path& pickle_path) {
  fs::path ref_path = pickle_path;
  ref_path.replace_extension(".memviz.json");
  REQUIRE_MESSAGE(fs::exists(ref_path), "missing reference " << ref_path);
  std::ifstream in(ref_path);
  nlohmann::json ref = nlohmann::json::parse(in);

  Snapshot snap = read_snapshot(pickle_path.string());
  CHECK(snap.source_bytes == ref["snapshot_bytes"].get<uint64_t>());
  CHECK(snap.top_level_keys == ref["top_level_keys"].get<std::vector<std::string>>());

  std::vector<int> ref_devices;
  for (const auto& dev : ref["devices"]) ref_devices.push_back(dev["device"].get<int>());
  CHECK(snap.devices() == ref_devices);

  for (const auto& dev : ref["devices"]) {
    int d = dev["device"].get<int>();
    INFO("device " << d);
    size_t events =
        static_cast<size_t>(d) < snap.device_traces.size() ? snap.device_traces[d].events.size() : 0;
    CHECK(events == dev["trace_events"].get<size_t>());
    std::map<std::string, int64_t> counts;
    if (events > 0) {
      for (const TraceEvent& e : snap.device_traces[d].events) counts[action_label(e, snap)]++;
    }
    CHECK(counts == dev["raw_action_counts"].get<std::map<std::string, int64_t>>());
    auto segments = std::count_if(snap.segments.begin(), snap.segments.end(),
                                  [&](const Segment& s) { return s.device == d; });
    CHECK(segments == dev["segments"].get<int64_t>());
  }
}

}  // namespace

TEST_SUITE("conformance") {
  TEST_CASE("reader matches memory_viz counts on every real snapshot") {
    for (const fs::path& p : snapshot_pickles()) {
      INFO("snapshot " << p.filename().string());
      check_against_reference(p);
    }
  }
}
