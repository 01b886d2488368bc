#include "unit/support/test_store_fixture.h"

#include <stdlib.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "core/pickle/pickle_writer.h"

namespace snapscope::test {
namespace {

void write_frames(PickleWriter& w, const std::vector<FixtureFrame>& frames) {
  w.begin_list();
  for (const FixtureFrame& frame : frames) {
    w.begin_dict();
    w.str("filename");
    w.str(frame.filename);
    w.str("line");
    w.integer(frame.line);
    w.str("name");
    w.str(frame.name);
    w.end_dict();
  }
  w.end_list();
}

void write_event(PickleWriter& w, const FixtureEvent& event) {
  w.begin_dict();
  w.str("action");
  w.str(event.action);
  w.str("addr");
  w.uint(event.addr);
  w.str("size");
  w.uint(event.size);
  w.str("stream");
  w.uint(event.stream);
  if (event.time_us >= 0) {
    w.str("time_us");
    w.integer(event.time_us);
  }
  w.str("frames");
  write_frames(w, event.frames);
  if (!event.compile_context.empty()) {
    w.str("compile_context");
    w.str(event.compile_context);
  }
  w.end_dict();
}

void write_segment(PickleWriter& w, const FixtureSegment& segment) {
  uint64_t allocated = 0;
  for (const FixtureBlock& block : segment.blocks) {
    if (block.state == "active_allocated") allocated += block.size;
  }
  w.begin_dict();
  const std::pair<const char*, uint64_t> numbers[] = {
      {"address", segment.address}, {"total_size", segment.total_size}, {"allocated_size", allocated},
      {"active_size", allocated},   {"requested_size", allocated},      {"stream", 0}};
  w.str("device");
  w.integer(segment.device);
  for (const auto& [key, value] : numbers) {
    w.str(key);
    w.uint(value);
  }
  w.str("segment_type");
  w.str("large");
  w.str("segment_pool_id");
  w.begin_tuple();
  w.integer(segment.pool_id[0]);
  w.integer(segment.pool_id[1]);
  w.end_tuple();
  w.str("is_expandable");
  w.boolean(false);
  w.str("frames");
  write_frames(w, {});
  w.str("blocks");
  w.begin_list();
  for (const FixtureBlock& block : segment.blocks) {
    w.begin_dict();
    w.str("size");
    w.uint(block.size);
    w.str("requested_size");
    w.uint(block.requested_size);
    w.str("state");
    w.str(block.state);
    w.str("frames");
    write_frames(w, {{"ghost_alloc", "g.py", 7}});
    w.end_dict();
  }
  w.end_list();
  w.end_dict();
}

}  // namespace

FixtureSnapshot standard_fixture() {
  const std::vector<FixtureFrame> a_frames = {{"alloc_a", "a.py", 11}, {"main", "m.py", 2}};
  const std::vector<FixtureFrame> b_frames = {{"alloc_b", "b.py", 21}, {"main", "m.py", 2}};
  FixtureSnapshot snapshot;
  snapshot.traces.resize(2);
  snapshot.traces[0] = {
      {"alloc", 0x1000, 100, 10, a_frames, "ctx_a", 7},
      {"alloc", 0x2000, 200, 20, b_frames, "", 0},
      {"free_requested", 0x1000, 100, 30, a_frames, "", 7},
      {"free_completed", 0x1000, 100, 31, a_frames, "", 7},
      {"free_completed", 0x9000, 50, 40, {{"free_x", "x.py", 5}}, "", 0},
      {"alloc", 0x3000, 300, 50, b_frames, "", 0},
      {"segment_alloc", 0x100000, 2 << 20, 60, {}, "", 0},
  };
  snapshot.traces[1] = {
      {"alloc", 0x5000, 64, 100, {{"dev1", "d.py", 1}}, "", 0},
      {"free_completed", 0x5000, 64, 110, {{"dev1", "d.py", 1}}, "", 0},
  };
  snapshot.segments = {{0, 0x100000, 2 << 20, {{512, 500, "active_allocated"}, {1024, 0, "inactive"}}}};
  snapshot.with_allocator_settings = true;
  return snapshot;
}

std::string pickle_bytes(const FixtureSnapshot& snapshot) {
  std::string out;
  PickleWriter w(out, 4, PickleWriter::Memo::Auto);
  w.begin_dict();
  w.str("segments");
  w.begin_list();
  for (const FixtureSegment& segment : snapshot.segments) write_segment(w, segment);
  w.end_list();
  w.str("device_traces");
  w.begin_list();
  for (const auto& trace : snapshot.traces) {
    w.begin_list();
    for (const FixtureEvent& event : trace) write_event(w, event);
    w.end_list();
  }
  w.end_list();
  if (snapshot.with_allocator_settings) {
    w.str("allocator_settings");
    w.begin_dict();
    w.str("max_split_size");
    w.integer(-1);
    if (snapshot.trace_overflowed) {
      w.str("trace_alloc_max_entries");
      w.integer(7);
      w.str("trace_alloc_overflowed");
      w.boolean(true);
    }
    w.end_dict();
  }
  w.end_dict();
  w.finish();
  return out;
}

void write_file(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "snapscope-test-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::vector<std::string> TempDir::entries_of(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace snapscope::test
