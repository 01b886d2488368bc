// read_snapshot on small snapshots written with PickleWriter: model conversion (blocks,
// legacy history, frames, actions, oom, metadata, devices), gzip input, and error text.
#include <doctest/doctest.h>
#include <unistd.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include <nlohmann/json.hpp>

#include "core/pickle/pickle_writer.h"
#include "core/pickle/unpickler.h"
#include "core/snapshot/snapshot_reader.h"
#include "unit/support/trace_pickle.h"

using namespace snapscope;
namespace fs = std::filesystem;

namespace {

// A file in the temp directory, removed when the test ends.
class TempFile {
 public:
  explicit TempFile(const std::string& suffix) {
    static int counter = 0;
    path_ = (fs::temp_directory_path() /
             ("snapscope_reader_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + suffix))
                .string();
  }
  ~TempFile() { fs::remove(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string write_pickle(const std::function<void(PickleWriter&)>& body, int protocol = 4) {
  std::string out;
  PickleWriter w(out, protocol, PickleWriter::Memo::Auto);
  body(w);
  w.finish();
  return out;
}

void save(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// Writes a frame dict and returns its memo slot.
uint32_t frame(PickleWriter& w, const char* name, const char* file, int64_t line) {
  w.begin_dict();
  uint32_t memo = w.last_memo();
  w.str("name");
  w.str(name);
  w.str("filename");
  w.str(file);
  w.str("line");
  w.integer(line);
  w.end_dict();
  return memo;
}

// {'action': action, 'addr': addr, 'size': size, 'stream': 0, <extra>}
void event(PickleWriter& w, const char* action, uint64_t addr, uint64_t size,
           const std::function<void(PickleWriter&)>& extra = {}) {
  w.begin_dict();
  w.str("action");
  w.str(action);
  w.str("addr");
  w.uint(addr);
  w.str("size");
  w.uint(size);
  w.str("stream");
  w.integer(0);
  if (extra) extra(w);
  w.end_dict();
}

Snapshot read_bytes(const std::string& bytes, const ReadOptions& options = {}) {
  TempFile file(".pickle");
  save(file.path(), bytes);
  return read_snapshot(file.path(), options);
}

std::string error_of(const std::string& bytes, const std::string& suffix = ".pickle") {
  TempFile file(suffix);
  save(file.path(), bytes);
  try {
    read_snapshot(file.path());
  } catch (const InputError& e) {
    std::string message = e.what();
    CHECK(message.rfind(file.path() + ": ", 0) == 0);  // "<file>: <reason>"
    CHECK(message.find('\n') == std::string::npos);
    return message.substr(file.path().size() + 2);
  }
  return "";
}

std::string frame_text(const Snapshot& s, FrameId id) {
  const Frame& f = s.frames.get(id);
  return std::string(s.strings.view(f.filename)) + ":" + std::to_string(f.line) + ":" +
         std::string(s.strings.view(f.name));
}

// A snapshot with one segment of three blocks and a trace on device 0.
std::string sample_snapshot() {
  return write_pickle([](PickleWriter& w) {
    w.begin_dict();
    w.str("segments");
    w.begin_list();
    w.begin_dict();
    w.str("device");
    w.integer(0);
    w.str("address");
    w.uint(0x7f00'0000'0000);
    w.str("total_size");
    w.integer(3000);
    w.str("stream");
    w.integer(0);
    w.str("segment_type");
    w.str("small");
    w.str("segment_pool_id");
    w.begin_tuple();
    w.integer(1);
    w.integer(2);
    w.end_tuple();
    w.str("is_expandable");
    w.boolean(true);
    w.str("blocks");
    w.begin_list();
    for (int i = 0; i < 3; ++i) {
      w.begin_dict();
      w.str("address");
      w.integer(12345);  // ignored, as in memory_viz
      w.str("size");
      w.integer(1000 - i * 100);
      w.str("requested_size");
      w.integer(10 + i);
      w.str("state");
      w.str(i == 1 ? "inactive" : "active_allocated");
      w.str("frames");
      w.begin_list();
      w.end_list();
      w.end_dict();
    }
    w.end_list();
    w.end_dict();
    w.end_list();
    w.str("device_traces");
    w.begin_list();
    w.begin_list();
    uint32_t shared_frame = 0;
    event(w, "alloc", 0x8000'0000'0000'0010ull, 512, [&](PickleWriter& w2) {
      w2.str("time_us");
      w2.integer(100);
      w2.str("frames");
      w2.begin_list();
      shared_frame = frame(w2, "inner", "a.py", 1);
      frame(w2, "outer", "b.py", 2);
      w2.end_list();
    });
    event(w, "free_completed", 0x8000'0000'0000'0010ull, 512, [&](PickleWriter& w2) {
      w2.str("frames");
      w2.begin_list();
      w2.get(shared_frame);
      frame(w2, "outer", "b.py", 2);  // equal content, not shared: interned to the same frame
      w2.end_list();
    });
    event(w, "mystery_action", 1, 2);
    w.begin_dict();
    w.str("action");
    w.str("oom");
    w.str("device_free");
    w.integer(4096);
    w.str("size");
    w.integer(1 << 20);
    w.str("stream");
    w.integer(0);
    w.str("frames");
    w.begin_list();
    w.end_list();
    w.end_dict();
    event(w, "alloc", 64, 8, [](PickleWriter& w2) {
      w2.str("user_metadata");
      w2.begin_dict();
      w2.str("step");
      w2.integer(3);
      w2.str("phase");
      w2.str("fwd");
      w2.end_dict();
      w2.str("compile_context");
      w2.str("ctx");
      w2.str("pool_id");
      w2.begin_tuple();
      w2.integer(3);
      w2.integer(4);
      w2.end_tuple();
    });
    w.end_list();
    w.begin_list();
    w.end_list();
    w.end_list();
    w.str("external_annotations");
    w.begin_list();
    w.begin_dict();
    w.str("stage");
    w.str("START");
    w.str("name");
    w.str("step");
    w.str("device");
    w.integer(0);
    w.str("time_us");
    w.integer(77);
    w.end_dict();
    w.end_list();
    w.str("allocator_settings");
    w.begin_dict();
    w.str("max_split_size");
    w.integer(-1);
    w.str("roundup");
    w.begin_dict();
    w.str("1");
    w.integer(0);
    w.end_dict();
    w.end_dict();
    w.str("some_future_key");
    w.none();
    w.end_dict();
  });
}

}  // namespace

TEST_CASE("segments and blocks: memory_viz block addresses and fields") {
  Snapshot s = read_bytes(sample_snapshot());
  REQUIRE(s.segments.size() == 1);
  const Segment& seg = s.segments[0];
  CHECK(seg.address == 0x7f00'0000'0000ull);
  CHECK(seg.total_size == 3000);
  CHECK(seg.is_expandable);
  CHECK(seg.pool_id[0] == 1);
  CHECK(seg.pool_id[1] == 2);
  CHECK(s.strings.view(seg.segment_type) == "small");
  REQUIRE(seg.block_count == 3);
  CHECK(s.blocks[0].address == seg.address);
  CHECK(s.blocks[1].address == seg.address + 1000);
  CHECK(s.blocks[2].address == seg.address + 1000 + 900);
  CHECK(s.blocks[1].state == BlockState::Inactive);
  CHECK(s.blocks[2].state == BlockState::ActiveAllocated);
  CHECK(s.strings.view(s.blocks[2].raw_state) == "active_allocated");
  CHECK(s.blocks[2].requested_size == 12);
  CHECK(s.blocks[2].segment == 0);
}

TEST_CASE("trace events: actions, addresses >= 2^63, frames, oom and metadata") {
  Snapshot s = read_bytes(sample_snapshot());
  REQUIRE(s.device_traces.size() == 2);
  const auto& ev = s.device_traces[0].events;
  REQUIRE(ev.size() == 5);
  CHECK(s.device_traces[1].events.empty());

  CHECK(ev[0].action() == Action::Alloc);
  CHECK(ev[0].addr == 0x8000'0000'0000'0010ull);
  CHECK(ev[0].size == 512);
  CHECK(ev[0].time_us == 100);
  CHECK(ev[0].has_frames());
  auto frames = s.stacks.frames(ev[0].stack);
  REQUIRE(frames.size() == 2);
  CHECK(frame_text(s, frames[0]) == "a.py:1:inner");
  CHECK(frame_text(s, frames[1]) == "b.py:2:outer");
  CHECK(ev[1].stack == ev[0].stack);  // same frames, shared or not: one stack id
  CHECK(ev[1].time_us == kNoTime);

  CHECK(ev[2].action() == Action::Unknown);
  CHECK(s.strings.view(s.rare_of(ev[2]).unknown_action) == "mystery_action");
  CHECK_FALSE(ev[2].has_frames());
  CHECK(ev[2].stack == 0);

  CHECK(ev[3].action() == Action::Oom);
  CHECK(ev[3].addr == 4096);  // device_free
  CHECK(ev[3].has_frames());

  CHECK(s.strings.view(s.extra_of(ev[4]).user_metadata) == "step: 3\nphase: fwd");
  CHECK(s.strings.view(s.extra_of(ev[4]).compile_context) == "ctx");
  CHECK(s.extra_of(ev[0]).compile_context == 0);  // none: no extra
  REQUIRE(s.pool_id_of(ev[4]) != nullptr);
  CHECK(*s.pool_id_of(ev[4]) == PoolIdPair{3, 4});
  CHECK(s.pool_id_of(ev[0]) == nullptr);
}

TEST_CASE("annotations, allocator settings, top-level keys and devices") {
  Snapshot s = read_bytes(sample_snapshot());
  REQUIRE(s.annotations.size() == 1);
  CHECK(s.strings.view(s.annotations[0].stage) == "START");
  CHECK(s.strings.view(s.annotations[0].name) == "step");
  CHECK(s.annotations[0].time_us == 77);
  CHECK((*s.allocator_settings)["max_split_size"] == -1);
  CHECK((*s.allocator_settings)["roundup"]["1"] == 0);
  CHECK(s.top_level_keys == std::vector<std::string>{"segments", "device_traces", "external_annotations",
                                                     "allocator_settings", "some_future_key"});
  CHECK(s.devices() == std::vector<int>{0});
}

TEST_CASE("legacy blocks without frames fall back to history[0], then to size") {
  Snapshot s = read_bytes(write_pickle([](PickleWriter& w) {
    w.begin_dict();
    w.str("segments");
    w.begin_list();
    w.begin_dict();
    w.str("device");
    w.integer(3);
    w.str("address");
    w.integer(4096);
    w.str("blocks");
    w.begin_list();
    w.begin_dict();  // history with real_size and frames
    w.str("size");
    w.integer(512);
    w.str("state");
    w.str("active_allocated");
    w.str("history");
    w.begin_list();
    w.begin_dict();
    w.str("addr");
    w.integer(4096);
    w.str("real_size");
    w.integer(500);
    w.str("frames");
    w.begin_list();
    frame(w, "f", "x.py", 9);
    w.end_list();
    w.end_dict();
    w.end_list();
    w.end_dict();
    w.begin_dict();  // no history, no requested_size: the block size
    w.str("size");
    w.integer(256);
    w.str("state");
    w.str("active_pending_free");
    w.end_dict();
    w.end_list();
    w.end_dict();
    w.end_list();
    w.end_dict();
  }));
  REQUIRE(s.blocks.size() == 2);
  CHECK(s.blocks[0].requested_size == 500);
  REQUIRE(s.stacks.frames(s.blocks[0].stack).size() == 1);
  CHECK(frame_text(s, s.stacks.frames(s.blocks[0].stack)[0]) == "x.py:9:f");
  CHECK(s.blocks[1].address == 4096 + 512);
  CHECK(s.blocks[1].requested_size == 256);
  CHECK(s.blocks[1].state == BlockState::ActivePending);
  CHECK(s.devices() == std::vector<int>{3});
  CHECK(s.top_level_keys == std::vector<std::string>{"segments"});
}

TEST_CASE("multi-device traces and only_device") {
  std::string bytes = write_pickle([](PickleWriter& w) {
    w.begin_dict();
    w.str("device_traces");
    w.begin_list();
    for (int d = 0; d < 3; ++d) {
      w.begin_list();
      for (int i = 0; i < (d == 1 ? 0 : 3 + d); ++i) event(w, "alloc", 1000 * d + i, 8);
      w.end_list();
    }
    w.end_list();
    w.end_dict();
  });
  Snapshot all = read_bytes(bytes);
  REQUIRE(all.device_traces.size() == 3);
  CHECK(all.device_traces[0].events.size() == 3);
  CHECK(all.device_traces[2].events.size() == 5);
  CHECK(all.device_traces[2].events[4].addr == 2004);
  CHECK(all.devices() == std::vector<int>{0, 2});

  ReadOptions only;
  only.only_device = 2;
  Snapshot two = read_bytes(bytes, only);
  CHECK(two.device_traces[0].events.empty());
  REQUIRE(two.device_traces[2].events.size() == 5);
  CHECK(two.device_traces[2].events[0].addr == 2000);
}

namespace {

// {'segments': [...one CUDA segment...], 'device_traces': [[2 allocs]], 'host_segments': [one
// segment, 'device': -1], 'host_traces': host_body}.
std::string host_snapshot(const std::function<void(PickleWriter&)>& host_traces_body) {
  return write_pickle([&](PickleWriter& w) {
    const auto segment = [&w](int64_t device, uint64_t address) {
      w.begin_dict();
      w.str("device");
      w.integer(device);
      w.str("address");
      w.uint(address);
      w.str("total_size");
      w.uint(4096);
      w.str("blocks");
      w.begin_list();
      w.begin_dict();
      w.str("size");
      w.uint(4096);
      w.str("requested_size");
      w.uint(4000);
      w.str("state");
      w.str("active_allocated");
      w.end_dict();
      w.end_list();
      w.end_dict();
    };
    w.begin_dict();
    w.str("segments");
    w.begin_list();
    segment(0, 0x7000);
    w.end_list();
    w.str("device_traces");
    w.begin_list();
    w.begin_list();
    event(w, "alloc", 0x9000, 8);
    event(w, "alloc", 0x9100, 8);
    w.end_list();
    w.end_list();
    w.str("host_segments");
    w.begin_list();
    segment(-1, 0x5000);
    w.end_list();
    w.str("host_traces");
    host_traces_body(w);
    w.end_dict();
  });
}

}  // namespace

TEST_CASE("host memory: host_traces as one list becomes the host device, with host_segments") {
  const std::string bytes = host_snapshot([](PickleWriter& w) {
    w.begin_list();
    event(w, "segment_alloc", 0x5000, 4096);
    event(w, "alloc", 0x5000, 4096);
    event(w, "free_requested", 0x5000, 4096);
    w.end_list();
  });
  const Snapshot s = read_bytes(bytes);
  CHECK(s.devices() == std::vector<int>{0, kHostDevice});
  REQUIRE(s.device_traces.size() == kHostDevice + 1);
  CHECK(s.device_traces[0].events.size() == 2);
  REQUIRE(s.device_traces[kHostDevice].events.size() == 3);
  CHECK(s.device_traces[kHostDevice].events[1].action() == Action::Alloc);
  CHECK(s.device_traces[kHostDevice].events[2].action() == Action::FreeRequested);
  REQUIRE(s.segments.size() == 2);
  CHECK(s.segments[0].device == 0);
  CHECK(s.segments[1].device == kHostDevice);  // whatever its own 'device' says (-1 here)
  CHECK(s.segments[1].address == 0x5000);

  ReadOptions host_only;
  host_only.only_device = kHostDevice;
  const Snapshot host = read_bytes(bytes, host_only);
  CHECK(host.device_traces[0].events.empty());
  CHECK(host.device_traces[kHostDevice].events.size() == 3);
  ReadOptions cuda_only;
  cuda_only.only_device = 0;
  const Snapshot cuda = read_bytes(bytes, cuda_only);
  CHECK(cuda.device_traces.size() == 1);  // no host trace built
  CHECK(cuda.device_traces[0].events.size() == 2);
}

TEST_CASE("host memory: host_traces shaped like device_traces gives one host device per list") {
  const Snapshot s = read_bytes(host_snapshot([](PickleWriter& w) {
    w.begin_list();
    w.begin_list();
    event(w, "alloc", 0x5000, 64);
    w.end_list();
    w.begin_list();
    event(w, "alloc", 0x6000, 64);
    event(w, "free_completed", 0x6000, 64);
    w.end_list();
    w.end_list();
  }));
  CHECK(s.devices() == std::vector<int>{0, kHostDevice, kHostDevice + 1});
  CHECK(s.device_traces[kHostDevice].events.size() == 1);
  REQUIRE(s.device_traces[kHostDevice + 1].events.size() == 2);
  CHECK(s.device_traces[kHostDevice + 1].events[0].addr == 0x6000);

  // No host events at all: the host segments alone still make the host device.
  const Snapshot empty = read_bytes(host_snapshot([](PickleWriter& w) {
    w.begin_list();
    w.end_list();
  }));
  CHECK(empty.devices() == std::vector<int>{0, kHostDevice});
}

TEST_CASE("host memory: malformed host_traces are one-line errors") {
  CHECK(error_of(host_snapshot([](PickleWriter& w) { w.integer(3); })) == "'host_traces' is not a list");
  CHECK(error_of(host_snapshot([](PickleWriter& w) {
          w.begin_list();
          event(w, "alloc", 0x5000, 64);
          w.integer(7);
          w.end_list();
        })) == "'host_traces' mixes trace entries with other values");
  CHECK(error_of(host_snapshot([](PickleWriter& w) {
          w.begin_list();
          w.begin_list();
          w.end_list();
          w.integer(7);
          w.end_list();
        })) == "host_traces[1] is not a list");
  CHECK(error_of(host_snapshot([](PickleWriter& w) {
          w.begin_list();
          for (int k = 0; k < kMaxHostDevices + 1; ++k) {
            w.begin_list();
            w.end_list();
          }
          w.end_list();
        })) == "'host_traces' lists more than 8 traces");
}

TEST_CASE("device names and --device values") {
  CHECK(device_name(0) == "device 0");
  CHECK(device_name(kHostDevice) == "host (pinned)");
  CHECK(device_name(kHostDevice + 2) == "host 2 (pinned)");
  CHECK(parse_device("3") == 3);
  CHECK(parse_device("host") == kHostDevice);
  CHECK(parse_device("host1") == kHostDevice + 1);
  CHECK(parse_device("host8") == std::nullopt);
  CHECK(parse_device("65536") == std::nullopt);
  CHECK(parse_device("-1") == std::nullopt);
  CHECK(parse_device("") == std::nullopt);
  CHECK(parse_device("gpu") == std::nullopt);
}

TEST_CASE("gzip input is read transparently, with progress") {
  std::string bytes = sample_snapshot();
  TempFile file(".pickle.gz");
  gzFile gz = gzopen(file.path().c_str(), "wb");
  REQUIRE(gz != nullptr);
  REQUIRE(gzwrite(gz, bytes.data(), static_cast<unsigned>(bytes.size())) == static_cast<int>(bytes.size()));
  gzclose(gz);
  ReadOptions options;
  uint64_t last_read = 0, total = 0;
  options.on_progress = [&](const ReadProgress& p) {
    last_read = p.bytes_read;
    total = p.bytes_total;
  };
  Snapshot s = read_snapshot(file.path(), options);
  CHECK(s.device_traces.at(0).events.size() == 5);
  CHECK(total == fs::file_size(file.path()));
  CHECK(last_read == total);

  // A truncated gzip stream is an input error, not a crash.
  std::string compressed;
  {
    std::ifstream in(file.path(), std::ios::binary);
    compressed.assign(std::istreambuf_iterator<char>(in), {});
  }
  CHECK(error_of(compressed.substr(0, compressed.size() / 2), ".pickle.gz").find("truncated gzip data") !=
        std::string::npos);
}

TEST_CASE("non-snapshot and unsafe input: one-line InputError naming the file") {
  CHECK(error_of(write_pickle([](PickleWriter& w) {
          w.begin_list();
          w.end_list();
        })) == "not a PyTorch memory snapshot (the top level is not a dict)");
  CHECK(error_of(write_pickle([](PickleWriter& w) {
          w.begin_dict();
          w.str("weights");
          w.integer(1);
          w.end_dict();
        })) == "not a PyTorch memory snapshot (no 'segments' or 'device_traces' key)");
  CHECK(error_of("cos\nsystem\n(S'ls'\ntR.") ==
        "refusing opcode GLOBAL (it could run code; only plain data is accepted) at byte 0");
  CHECK(error_of("") == "unexpected end of input before STOP at byte 0");
  CHECK(error_of(write_pickle([](PickleWriter& w) {
          w.begin_dict();
          w.str("device_traces");
          w.begin_list();
          w.begin_list();
          event(w, "alloc", 1, 2, [](PickleWriter& w2) {
            w2.str("size");
            w2.str("big");
          });
          w.end_list();
          w.end_list();
          w.end_dict();
        })).find("trace entry size is not an integer at byte ") == 0);
  try {
    read_snapshot("/nonexistent/dir/x.pickle");
    FAIL("expected InputError");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).rfind("/nonexistent/dir/x.pickle: cannot open", 0) == 0);
  }
}

// A dict repeating a key keeps the last value, as Python's pickle does, and only that value's
// type matters (fuzzer find: a 27-byte protocol-0 pickle used to leak vector::_M_range_check).
TEST_CASE("repeated dict keys: the last value wins and its type is checked") {
  const std::string prefix = "(dVdevice_traces\n(l(l(dVaction\nVfree\nsVaction\n";
  const auto trace_with = [&](const std::string& last_action) { return prefix + last_action + "saa(las."; };
  CHECK(error_of("(l(dVaction\np5\nV\nsg5\nL75\nsa.") ==
        "not a PyTorch memory snapshot (the top level is not a dict)");
  // The last 'action' is an int: the entry is not a trace event, and says so by name.
  CHECK(error_of(trace_with("L75\n")).find("not") != std::string::npos);
  Snapshot s = read_bytes(trace_with("Valloc\n"));
  REQUIRE(s.device_traces.size() == 2);
  REQUIRE(s.device_traces[0].events.size() == 1);
  CHECK(s.device_traces[0].events[0].action() == Action::Alloc);
  // An earlier value of the wrong type is discarded, as Python discards it.
  Snapshot t = read_bytes("(dVdevice_traces\n(l(l(dVaction\nValloc\nsVsize\nVbig\nsVsize\nI7\nsaa(las.");
  REQUIRE(t.device_traces[0].events.size() == 1);
  CHECK(t.device_traces[0].events[0].size == 7);
  CHECK(error_of("(dVdevice_traces\n(l(l(dVaction\nValloc\nsVsize\nI7\nsVsize\nVbig\nsaa(las.")
            .find("trace entry size is not an integer at byte ") == 0);
}

TEST_CASE("model tables: empty stack is id 0, interning is stable, StringTable views survive a move") {
  StackTable stacks;
  CHECK(stacks.size() == 1);
  CHECK(stacks.frames(0).empty());
  std::vector<FrameId> a{1, 2, 3}, b{1, 2};
  StackId sa = stacks.intern(a);
  CHECK(sa == 1);
  CHECK(stacks.intern(b) == 2);
  CHECK(stacks.intern(a) == sa);
  CHECK(stacks.intern({}) == 0);
  CHECK(std::vector<FrameId>(stacks.frames(sa).begin(), stacks.frames(sa).end()) == a);

  StringTable strings;
  CHECK(strings.view(0).empty());
  StringId id = strings.intern("short");
  StringId long_id = strings.intern(std::string(100, 'x'));
  StringTable moved = std::move(strings);
  CHECK(moved.view(id) == "short");
  CHECK(moved.view(long_id) == std::string(100, 'x'));
  CHECK(moved.intern("short") == id);

  CHECK(parse_action("segment_unmap") == Action::SegmentUnmap);
  CHECK(action_name(parse_action("free_requested")) == "free_requested");
  CHECK(parse_action("bogus") == Action::Unknown);
}

TEST_CASE("model tables: thousands of stacks keep their ids through the index's growth") {
  StackTable stacks;
  const auto stack_of = [](uint32_t n) { return std::vector<FrameId>{n % 7, n, n / 3, n % 5}; };
  for (uint32_t n = 0; n < 5000; ++n) REQUIRE(stacks.intern(stack_of(n)) == n + 1);
  for (uint32_t n = 0; n < 5000; ++n) {
    if (stacks.intern(stack_of(n)) != n + 1) FAIL("stack " << n << " changed its id");
  }
  CHECK(stacks.size() == 5001);
  CHECK(stacks.intern(std::vector<FrameId>{0, 0, 0}) == 5001);  // a prefix of stack 0 is new
  const auto frames = stacks.frames(4242);
  CHECK(std::vector<FrameId>(frames.begin(), frames.end()) == stack_of(4241));
}

namespace {

// A list nested `levels` deep whose every level holds the level below twice (memo references):
// a few hundred bytes describing 2^levels leaves.
void shared_dag(PickleWriter& w, int levels) {
  w.begin_list();
  if (levels > 0) {
    shared_dag(w, levels - 1);
    w.get(w.memoize());  // the same list again, by reference
  }
  w.end_list();
}

}  // namespace

TEST_CASE("shared containers cannot blow up allocator_settings, keys or user_metadata (found by fuzzing)") {
  CHECK(error_of(write_pickle([](PickleWriter& w) {
          w.begin_dict();
          w.str("segments");
          w.begin_list();
          w.end_list();
          w.str("allocator_settings");
          shared_dag(w, 40);
          w.end_dict();
        })) == "allocator_settings too large (over 10000 values)");
  const Snapshot s = read_bytes(test::one_trace_pickle([](PickleWriter& w) {
    event(w, "alloc", 64, 8, [](PickleWriter& w2) {
      w2.str("user_metadata");
      w2.begin_dict();
      w2.str("tree");
      shared_dag(w2, 40);
      w2.end_dict();
    });
  }));
  const std::string_view metadata = s.strings.view(s.extra_of(s.device_traces[0].events[0]).user_metadata);
  CHECK(metadata.starts_with("tree: [[[["));
  CHECK(metadata.size() <= (size_t{16} << 10) + 3);  // pickle::kDefaultReprBytes
}

TEST_CASE("string compile_context and user_metadata: whole up to the display limit, cut after it") {
  const std::string long_text(pickle::kDefaultReprBytes + 10, 'x');
  const Snapshot s = read_bytes(test::one_trace_pickle([&](PickleWriter& w) {
    for (uint64_t i = 0; i < 3; ++i) {  // "N/A" written out again in every entry, as PyTorch does
      event(w, "alloc", 64 * (i + 1), 8, [&](PickleWriter& w2) {
        w2.str("compile_context");
        w2.str("N/A");
        w2.str("user_metadata");
        w2.str(i == 2 ? long_text : std::string(pickle::kDefaultReprBytes, 'y'));
      });
    }
  }));
  const auto& events = s.device_traces[0].events;
  REQUIRE(events.size() == 3);
  for (const TraceEvent& e : events) CHECK(s.strings.view(s.extra_of(e).compile_context) == "N/A");
  CHECK(s.extra_of(events[0]).compile_context == s.extra_of(events[1]).compile_context);
  CHECK(s.strings.view(s.extra_of(events[0]).user_metadata) == std::string(pickle::kDefaultReprBytes, 'y'));
  CHECK(s.strings.view(s.extra_of(events[2]).user_metadata) ==
        std::string(pickle::kDefaultReprBytes, 'x') + "...");
}
