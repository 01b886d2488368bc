// Generated snapshots (plain and gzip) read back through the product's snapshot reader.
#include <doctest/doctest.h>

#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

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
    CHECK(snapshot.allocator_settings->is_object());
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
                      [](const auto& e) { return e.action() == snapscope::Action::Alloc; }) == 80);
  CHECK(std::count_if(host_events.begin(), host_events.end(),
                      [](const auto& e) { return e.action() == snapscope::Action::FreeCompleted; }) == 78);

  // What the trace leaves allocated is what the host segments hold as active_allocated.
  uint64_t live = 0;
  for (const auto& e : host_events) {
    if (e.action() == snapscope::Action::Alloc) live += e.size;
    if (e.action() == snapscope::Action::FreeCompleted) live -= e.size;
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

TEST_CASE("generated memory notes: annotate events name live allocations and leave the layout alone") {
  gen::GenOptions plain;
  plain.events = 3000;
  plain.seed = 6;
  gen::GenOptions noted = plain;
  noted.memory_notes = true;
  const fs::path plain_path = temp_file("plain.pickle"), noted_path = temp_file("noted.pickle");
  write_file(plain_path, plain, false);
  write_file(noted_path, noted, false);
  const snapscope::Snapshot without = snapscope::read_snapshot(plain_path.string());
  const snapscope::Snapshot with = snapscope::read_snapshot(noted_path.string());
  fs::remove(plain_path);
  fs::remove(noted_path);

  const auto& events = with.device_traces.at(0).events;
  std::map<uint64_t, bool> live;  // address -> allocated and not yet asked to be freed
  size_t notes = 0;
  for (const snapscope::TraceEvent& e : events) {
    if (e.action() == snapscope::Action::Alloc) live[e.addr] = true;
    if (e.action() == snapscope::Action::FreeRequested || e.action() == snapscope::Action::FreeCompleted)
      live[e.addr] = false;
    if (e.action() != snapscope::Action::Unknown) continue;
    CHECK(with.strings.view(with.rare_of(e).unknown_action) == "annotate");
    CHECK(with.strings.view(with.extra_of(e).user_metadata) == "retained by autograd (saved for backward)");
    CHECK(live[e.addr]);
    ++notes;
  }
  CHECK(notes > 10);
  CHECK(events.size() == without.device_traces.at(0).events.size() + notes);
  // The same allocations, in the same order: annotate events are neither allocs nor frees.
  const auto layout = [](const snapscope::Snapshot& s) {
    std::vector<std::pair<uint64_t, uint64_t>> out;
    for (const auto& e : s.device_traces.at(0).events)
      if (e.action() != snapscope::Action::Unknown)
        out.emplace_back(static_cast<uint64_t>(e.action()), e.addr);
    return out;
  };
  CHECK(layout(with) == layout(without));
}

TEST_CASE("generated forward frames: each backward allocation names its layer's forward op") {
  gen::GenOptions options;
  options.events = 4000;
  options.seed = 3;
  options.forward_frames = true;
  const fs::path path = temp_file("forward.pickle");
  write_file(path, options, false);
  const snapscope::Snapshot snapshot = snapscope::read_snapshot(path.string());
  fs::remove(path);
  size_t with_forward = 0, allocs = 0;
  for (const snapscope::TraceEvent& event : snapshot.device_traces.at(0).events) {
    if (event.action() != snapscope::Action::Alloc) continue;
    ++allocs;
    if (!event.has_extra()) continue;
    const snapscope::StringId text = snapshot.rare_of(event).forward_frames;
    if (text == 0) continue;
    ++with_forward;
    // Python traceback strings, read as "file:line:function" frames, innermost first.
    const std::string_view frames = snapshot.strings.view(text);
    CHECK(frames.find(".py:") != std::string_view::npos);
    CHECK(frames.find("File \"") == std::string_view::npos);
    CHECK(frames.find("??") == std::string_view::npos);  // autograd keeps the Python frames
  }
  CHECK(with_forward > 50);
  CHECK(with_forward < allocs);  // forward, optimizer and parameter allocations have none
}
