// core/export on the real snapshots of $SNAPSCOPE_SNAPSHOT_DIR: the exported totals equal
// memory_viz's (NAME.memviz.json) and sums taken straight from the raw trace, for every device.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/analysis/call_tree.h"
#include "core/analysis/state_mapping.h"
#include "core/export/export.h"
#include "core/export/export_source.h"
#include "core/snapshot/snapshot_reader.h"
#include "real_snapshots.h"

using namespace snapscope;
namespace fs = std::filesystem;
using namespace snapscope::conformance;

namespace {

class ScratchDir {
 public:
  ScratchDir() : path_(fs::temp_directory_path() / ("snapscope-export-real-" + std::to_string(::getpid()))) {
    fs::create_directories(path_);
  }
  ~ScratchDir() { fs::remove_all(path_); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

nlohmann::json export_json(const AnalysisSource& source, ExportFormat format, const std::string& path) {
  ExportRequest request;
  request.format = format;
  request.state = peak_state(*source.blocks);
  export_to_file(export_input(source), request, path);
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

uint64_t total_weight(const nlohmann::json& speedscope) {
  uint64_t total = 0;
  for (const auto& weight : speedscope["profiles"][0]["weights"]) total += weight.get<uint64_t>();
  return total;
}

// Bytes of every `alloc` event of the device's raw trace: what speedscope-allocated covers.
uint64_t raw_alloc_bytes(const Snapshot& snapshot, int device) {
  uint64_t bytes = 0;
  for (const TraceEvent& event : snapshot.device_traces.at(size_t(device)).events) {
    if (event.action() == Action::Alloc) bytes += event.size;
  }
  return bytes;
}

uint64_t raw_count(const nlohmann::json& device, const char* action) {
  return device.at("raw_action_counts").value(action, uint64_t{0});
}

struct CounterPeaks {
  uint64_t allocated = 0, reserved = 0;
};

CounterPeaks counter_peaks(const nlohmann::json& trace) {
  CounterPeaks peaks;
  for (const auto& event : trace["traceEvents"]) {
    if (event["ph"] != "C") continue;
    uint64_t& peak = event["name"] == "allocated" ? peaks.allocated : peaks.reserved;
    peak = std::max(peak, event["args"]["bytes"].get<uint64_t>());
  }
  return peaks;
}

}  // namespace

TEST_SUITE("conformance") {
  TEST_CASE("export: speedscope totals equal the call tree root and memory_viz's peak on every snapshot") {
    ScratchDir scratch;
    for (const fs::path& pickle : snapshot_pickles()) {
      const nlohmann::json reference = load_reference(pickle);
      for (const nlohmann::json& device : reference.at("devices")) {
        const int index = device.at("device").get<int>();
        CAPTURE(pickle.filename().string());
        CAPTURE(index);
        const AnalysisSource source = load_analysis_source(pickle.string(), {index, true});
        const size_t peak = peak_state(*source.blocks);
        const CallTree tree = build_call_tree(live_elements(*source.blocks, peak), *source.stacks);
        const uint64_t memviz_peak = device.at("timeline").at("peak").get<uint64_t>();
        const auto live = export_json(source, ExportFormat::Speedscope, scratch.file("live.json"));
        CHECK(total_weight(live) == tree.total_bytes());
        CHECK(total_weight(live) == memviz_peak);
        // torch's "??" (a native frame's unknown file) is no file: omitted, with its line.
        for (const nlohmann::json& frame : live["shared"]["frames"]) {
          CHECK(frame.value("file", std::string()) != "??");
          if (!frame.contains("file")) CHECK(!frame.contains("line"));
        }
        const auto allocated =
            export_json(source, ExportFormat::SpeedscopeAllocated, scratch.file("all.json"));
        CHECK(total_weight(allocated) == raw_alloc_bytes(*source.snapshot, index));

        const bool timed = std::any_of(source.blocks->input().action_time_us.begin(),
                                       source.blocks->input().action_time_us.end(),
                                       [](int64_t time) { return time != kNoTime; });
        if (!timed) continue;
        const CounterPeaks peaks =
            counter_peaks(export_json(source, ExportFormat::ChromeTrace, scratch.file("trace.json")));
        CHECK(peaks.allocated == memviz_peak);
        // The one reserved figure; memory_viz's segment timeline agrees unless segments were
        // mapped and unmapped (expandable segments), which it does not draw.
        CHECK(peaks.reserved == source.reserved.peak());
        if (raw_count(device, "segment_map") + raw_count(device, "segment_unmap") == 0)
          CHECK(peaks.reserved == device.at("segment_timeline").at("peak").get<uint64_t>());
      }
    }
  }
}
