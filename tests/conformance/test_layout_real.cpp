// Real snapshots against memory_viz's own layouts: every *.pickle in $SNAPSCOPE_SNAPSHOT_DIR
// must come with NAME.memviz.json (format memviz-ref/1, see that directory's README.md), and
// both timelines of every device must agree with it number for number.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/snapshot/snapshot_reader.h"
#include "core/timeline/timeline.h"
#include "real_snapshots.h"

using namespace snapscope;
namespace fs = std::filesystem;
using namespace snapscope::conformance;
using nlohmann::json;

namespace {

// Collects disagreements; reports the count and the first few, so one bad layout does not
// flood the log with a million failed assertions.
class Mismatches {
 public:
  template <typename A, typename B>
  void expect_equal(const A& actual, const B& expected, const std::string& what) {
    if (actual == expected) return;
    if (count_++ < kShown) {
      std::ostringstream line;
      line << what << ": got " << actual << ", memory_viz has " << expected << "\n";
      text_ += line.str();
    }
  }
  size_t count() const { return count_; }
  const std::string& text() const { return text_; }

 private:
  static constexpr size_t kShown = 8;
  size_t count_ = 0;
  std::string text_;
};

std::vector<uint64_t> expand_max_at_time(const json& layout) {
  std::vector<uint64_t> series;
  if (layout.contains("max_at_time")) return layout.at("max_at_time").get<std::vector<uint64_t>>();
  for (const json& run : layout.at("max_at_time_rle")) {
    series.insert(series.end(), run.at(1).get<size_t>(), run.at(0).get<uint64_t>());
  }
  return series;
}

// Vertex indices memory_viz-ref samples: all when few, else the ends and round(k(n-1)/7).
std::vector<size_t> sampled_vertex_indices(size_t points) {
  std::set<size_t> indices;
  if (points <= 8) {
    for (size_t i = 0; i < points; ++i) indices.insert(i);
  } else {
    indices.insert(0);
    indices.insert(points - 1);
    for (size_t k = 1; k <= 6; ++k) {
      indices.insert(static_cast<size_t>(std::lround(static_cast<double>(k * (points - 1)) / 7.0)));
    }
  }
  return {indices.begin(), indices.end()};
}

std::string expected_action_name(const ReplayElement& element, TimelineKind kind) {
  const bool segments = kind == TimelineKind::Segments;
  switch (element.origin) {
    case Origin::Traced:
      return segments ? "segment_alloc" : "alloc";
    case Origin::FreeWithoutAlloc:
      if (segments) return "segment_free";
      return element.merged_free ? "free" : "free_completed";
    default:
      return "alloc";
  }
}

int64_t expected_event(const ReplayElement& element) {
  switch (element.origin) {
    case Origin::Traced:
      return element.alloc_event;
    case Origin::FreeWithoutAlloc:
      return element.source_event();
    default:
      return -1;
  }
}

void compare_series(const Timeline& timeline, const json& layout, Mismatches& m) {
  m.expect_equal(timeline.element_count(), layout.at("elements").get<size_t>(), "elements");
  m.expect_equal(timeline.stack_size(), layout.at("polygons").get<size_t>(), "polygons");
  m.expect_equal(timeline.timesteps(), layout.at("timesteps").get<uint64_t>(), "timesteps");
  m.expect_equal(timeline.max_size(), layout.at("max_size").get<uint64_t>(), "max_size");
  m.expect_equal(timeline.peak_bytes(), layout.at("peak").get<uint64_t>(), "peak");
  m.expect_equal(timeline.action_count(), layout.at("actions_count").get<size_t>(), "actions_count");
  m.expect_equal(timeline.input().synthetic_action, layout.at("synthetic_action").get<bool>(),
                 "synthetic_action");
  const std::vector<uint64_t> max_at_time = expand_max_at_time(layout);
  m.expect_equal(max_at_time.size(), timeline.timesteps(), "max_at_time length");
  for (uint64_t t = 0; t < std::min<uint64_t>(max_at_time.size(), timeline.timesteps()); ++t) {
    m.expect_equal(timeline.memory_at_step(t), max_at_time[t], "max_at_time[" + std::to_string(t) + "]");
  }
  const json& steps = layout.at("actions");
  const json& events = layout.at("action_event");
  const json& elems = layout.at("action_elem");
  for (size_t i = 0; i < std::min(timeline.action_count(), steps.size()); ++i) {
    const std::string at = "[" + std::to_string(i) + "]";
    m.expect_equal(timeline.step_end(i), steps[i].get<uint64_t>(), "actions" + at);
    m.expect_equal(timeline.action_event(i), events[i].get<int64_t>(), "action_event" + at);
    m.expect_equal(timeline.action_elem(i), elems[i].get<uint32_t>(), "action_elem" + at);
  }
}

void compare_polygon(const Timeline& timeline, uint32_t elem, const json& record, Mismatches& m) {
  const std::string at = "elem " + std::to_string(elem) + " ";
  const auto vertices = timeline.polygon(elem);
  const auto points = record.at("points").get<size_t>();
  m.expect_equal(vertices.size(), points, at + "points");
  if (vertices.size() != points || points == 0) return;
  m.expect_equal(vertices.front().first, record.at("t_start").get<uint64_t>(), at + "t_start");
  m.expect_equal(vertices.back().first, record.at("t_end").get<uint64_t>(), at + "t_end");
  const std::vector<size_t> indices = sampled_vertex_indices(points);
  const json& sampled = record.at("offsets_at");
  m.expect_equal(indices.size(), sampled.size(), at + "sampled vertex count");
  for (size_t k = 0; k < std::min(indices.size(), sampled.size()); ++k) {
    const auto& [t, offset] = vertices[indices[k]];
    const std::string vertex = at + "vertex " + std::to_string(indices[k]);
    m.expect_equal(t, sampled[k].at(0).get<uint64_t>(), vertex + " t");
    m.expect_equal(offset, sampled[k].at(1).get<uint64_t>(), vertex + " offset");
  }
}

void compare_allocations(const Snapshot& snapshot, const Timeline& timeline, const json& layout,
                         Mismatches& m) {
  const json& records = layout.at("allocations");
  m.expect_equal(records.size(), timeline.stack_size(), "allocation records");
  for (size_t position = 0; position < std::min(records.size(), timeline.stack_size()); ++position) {
    const json& record = records[position];
    const uint32_t elem = timeline.element_at_stack_position(static_cast<uint32_t>(position));
    m.expect_equal(elem, record.at("elem").get<uint32_t>(),
                   "elem at stack position " + std::to_string(position));
    const ReplayElement& element = timeline.element(elem);
    const std::string at = "elem " + std::to_string(elem) + " ";
    const bool from_snapshot =
        element.origin == Origin::SnapshotBlock || element.origin == Origin::SnapshotSegment;
    m.expect_equal(element.size, record.at("size").get<uint64_t>(), at + "size");
    m.expect_equal(expected_action_name(element, timeline.input().kind),
                   record.at("action").get<std::string>(), at + "action");
    m.expect_equal(std::to_string(element.addr), record.at("addr").get<std::string>(), at + "addr");
    m.expect_equal(snapshot.stacks.frames(element.stack).size(), record.at("frames").get<size_t>(),
                   at + "frames");
    m.expect_equal(expected_event(element), record.at("event").get<int64_t>(), at + "event");
    m.expect_equal(element.origin == Origin::SnapshotBlock, record.value("ghost", false), at + "ghost");
    m.expect_equal(from_snapshot, record.value("from_snapshot", false), at + "from_snapshot");
    compare_polygon(timeline, elem, record, m);
  }
}

void check_timeline(const Snapshot& snapshot, int device, TimelineKind kind, const json& layout) {
  const Timeline timeline(derive_replay_input(snapshot, device, kind));
  Mismatches m;
  compare_series(timeline, layout, m);
  compare_allocations(snapshot, timeline, layout, m);
  const std::string view = kind == TimelineKind::Blocks ? "timeline" : "segment_timeline";
  CHECK_MESSAGE(m.count() == 0, view << ": " << m.count() << " disagreements with memory_viz, first ones:\n"
                                     << m.text());
}

void check_snapshot(const fs::path& pickle) {
  const json reference = load_reference(pickle);
  const Snapshot snapshot = read_snapshot(pickle.string());
  std::vector<int> devices;
  for (const json& entry : reference.at("devices")) devices.push_back(entry.at("device").get<int>());
  CHECK(snapshot.devices() == devices);
  for (const json& entry : reference.at("devices")) {
    const int device = entry.at("device").get<int>();
    CAPTURE(device);
    const auto trace = static_cast<size_t>(device);
    CHECK((trace < snapshot.device_traces.size() ? snapshot.device_traces[trace].events.size() : 0) ==
          entry.at("trace_events").get<size_t>());
    const auto segments = std::count_if(snapshot.segments.begin(), snapshot.segments.end(),
                                        [&](const Segment& s) { return s.device == device; });
    CHECK(static_cast<size_t>(segments) == entry.at("segments").get<size_t>());
    check_timeline(snapshot, device, TimelineKind::Blocks, entry.at("timeline"));
    check_timeline(snapshot, device, TimelineKind::Segments, entry.at("segment_timeline"));
  }
}

}  // namespace

TEST_SUITE("conformance") {
  TEST_CASE("layouts of real snapshots agree exactly with memory_viz") {
    for (const fs::path& pickle : snapshot_pickles()) {
      CAPTURE(pickle.filename().string());
      check_snapshot(pickle);
    }
  }
}
