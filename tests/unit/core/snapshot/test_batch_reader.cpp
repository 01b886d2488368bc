// The batch reader (core/pickle/batch_reader.h) against the opcode-by-opcode parse it stands in
// for: traces written as PyTorch writes them must read id for id alike, most of their entries in
// whole batches (or the test would pass with the reader off); shapes it does not take, and bad
// input, must read exactly as before, errors included.
#include <doctest/doctest.h>
#include <zlib.h>

#include <functional>
#include <map>
#include <string>

#include "core/pickle/pickle_writer.h"
#include "core/snapshot/snapshot_reader.h"
#include "unit/support/snapshot_digest.h"

using namespace snapscope;

namespace {

// Writes what CPython's pickler writes for an object graph whose equal keys, frames and
// frames lists are shared objects: the first use in full, later ones as memo references.
class TraceWriter {
 public:
  explicit TraceWriter(int protocol) : w_(out_, protocol, PickleWriter::Memo::Auto) {
    w_.begin_dict();
    key("segments");
    w_.begin_list();
    w_.end_list();
    key("device_traces");
    w_.begin_list();
    w_.begin_list();
  }

  PickleWriter& writer() { return w_; }

  void key(const std::string& text) {
    if (auto it = memo_.find(text); it != memo_.end()) return w_.get(it->second);
    w_.str(text);
    memo_[text] = w_.last_memo();
  }

  void frame(int id) {
    const std::string name = "frame" + std::to_string(id);
    if (auto it = frames_.find(id); it != frames_.end()) return w_.get(it->second);
    w_.begin_dict();
    frames_[id] = w_.last_memo();
    key("name");
    w_.str(name);
    key("filename");
    key("model.py");
    key("line");
    w_.integer(id * 7);
    w_.end_dict();
  }

  uint32_t frame_memo(int id) const { return frames_.at(id); }

  // An entry's frames list, or a reference to the list an earlier entry with `shared_as` had.
  void frames(const std::vector<int>& ids, int shared_as = -1) {
    if (auto it = lists_.find(shared_as); shared_as >= 0 && it != lists_.end()) return w_.get(it->second);
    w_.begin_list();
    if (shared_as >= 0) lists_[shared_as] = w_.last_memo();
    for (int id : ids) frame(id);
    w_.end_list();
  }

  // A trace entry {'action': action, ...what `fields` writes}.
  void entry(const std::string& action, const std::function<void(PickleWriter&)>& fields) {
    w_.begin_dict();
    key("action");
    key(action);
    fields(w_);
    w_.end_dict();
  }

  std::string finish() {
    w_.end_list();
    w_.end_list();
    w_.end_dict();
    w_.finish();
    return out_;
  }

 private:
  std::string out_;
  PickleWriter w_;
  std::map<std::string, uint32_t> memo_;
  std::map<int, uint32_t> frames_;
  std::map<int, uint32_t> lists_;
};

// Entry i of a trace with every shape real snapshots have: memoised and new actions, addresses
// at and past 2^63, sizes of every integer width, a new compile context string per entry,
// shared user metadata, frames lists of 0, 1 and many frames (new frames appearing mid-trace),
// shared frames lists, and entries without frames or time.
// Returns the entry's memo slot.
uint32_t real_shaped_entry(TraceWriter& t, int i) {
  PickleWriter& w = t.writer();
  w.begin_dict();
  const uint32_t memo = w.last_memo();
  t.key("action");
  static const char* const kActions[] = {"alloc", "free_requested", "free_completed", "segment_alloc"};
  t.key(i % 997 == 0 ? "segment_free" : kActions[i % 4]);
  t.key("addr");
  if (i % 5 == 0) {
    w.uint((uint64_t{1} << 63) + static_cast<uint64_t>(i) * 512);
  } else {
    w.integer(int64_t{139833534054400} + i * 512);
  }
  t.key("size");
  static const int64_t kSizes[] = {7, 512, 20971520, int64_t{1} << 40};
  w.integer(kSizes[i % 4]);
  t.key("stream");
  w.integer(i % 11 == 0 ? 94823749234 : 0);
  if (i % 13 != 0) {
    t.key("time_us");
    w.integer(int64_t{1748730219596671} + i);
  }
  t.key("compile_context");
  w.str("N/A");
  if (i % 3 == 0) {
    t.key("user_metadata");
    t.key("step " + std::to_string(i / 300));
  }
  if (i % 17 != 0) {
    t.key("frames");
    const int depth = i % 7 == 0 ? 0 : i % 7 == 1 ? 1 : 12;
    std::vector<int> ids;
    for (int f = 0; f < depth; ++f) ids.push_back((i / 500) * 3 + f);
    t.frames(ids, i % 9 == 0 ? i % 40 : -1);
  }
  w.end_dict();
  return memo;
}

std::string real_shaped_trace(int protocol, int entries) {
  TraceWriter t(protocol);
  for (int i = 0; i < entries; ++i) real_shaped_entry(t, i);
  return t.finish();
}

std::string gzipped(const std::string& bytes) {
  z_stream z{};
  REQUIRE(deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&z, bytes.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

struct Read {
  std::string digest;  // or the error
  uint64_t batch_items = 0;
  size_t events = 0;
};

Read read_with(const std::string& bytes, bool batches) {
  ReadOptions options;
  options.threads = 1;
  options.read_batches = batches;
  Read out;
  options.batch_items = &out.batch_items;
  try {
    const Snapshot s = read_snapshot_bytes(bytes, "trace.pickle", options);
    out.digest = testing::snapshot_digest(s);
    for (const DeviceTrace& trace : s.device_traces) out.events += trace.events.size();
  } catch (const InputError& e) {
    out.digest = std::string("error: ") + e.what();
  }
  return out;
}

// Reads `bytes` both ways; returns the batch reader's read after checking they agree.
Read read_both_ways(const std::string& bytes) {
  const Read reference = read_with(bytes, false);
  const Read batched = read_with(bytes, true);
  CHECK(reference.batch_items == 0);
  CHECK(batched.digest == reference.digest);
  return batched;
}

// A trace of `entries` whose entry `odd` is written by `write_odd` instead.
std::string trace_with_odd_entry(int entries, int odd, const std::function<void(TraceWriter&)>& write_odd) {
  TraceWriter t(4);
  for (int i = 0; i < entries; ++i) {
    if (i == odd) {
      write_odd(t);
    } else {
      real_shaped_entry(t, i);
    }
  }
  return t.finish();
}

}  // namespace

TEST_CASE("batch reader: real-shaped traces read id for id as opcode by opcode, every batch whole") {
  // 20000 entries (~2 MB) cross the 1 MB buffer and protocol 4's 64 KiB frames many times.
  for (int protocol : {2, 4}) {
    CAPTURE(protocol);
    const Read read = read_both_ways(real_shaped_trace(protocol, protocol == 4 ? 20000 : 3000));
    REQUIRE(read.digest.rfind("error", 0) != 0);
    CHECK(read.events == (protocol == 4 ? 20000u : 3000u));
    // Every batch, new frames, strings and shared frames lists included.
    CHECK(read.batch_items == read.events);
  }
}

TEST_CASE("batch reader: gzip input, whose size is unknown, reads the same") {
  const std::string plain = real_shaped_trace(4, 20000);
  const Read from_plain = read_with(plain, true);
  const Read from_gzip = read_both_ways(gzipped(plain));
  CHECK(from_gzip.digest == from_plain.digest);
  CHECK(from_gzip.batch_items >= from_gzip.events / 2);  // a batch that ends past the buffer is left
}

TEST_CASE(
    "batch reader: a batch with a shape it does not take is read opcode by opcode, to the same result") {
  const std::map<std::string, std::function<void(TraceWriter&)>> odd_entries = {
      {"an oom entry's device_free and a pool id tuple",
       [](TraceWriter& t) {
         t.entry("oom", [&](PickleWriter& w) {
           t.key("device_free");
           w.integer(1 << 20);
           t.key("pool_id");
           w.begin_tuple();
           w.integer(1);
           w.integer(2);
           w.end_tuple();
         });
       }},
      {"user metadata as a dict",
       [](TraceWriter& t) {
         t.entry("alloc", [&](PickleWriter& w) {
           t.key("user_metadata");
           w.begin_dict();
           t.key("step");
           w.integer(3);
           w.end_dict();
         });
       }},
      {"a frame whose trace is a number",
       [](TraceWriter& t) {
         t.entry("alloc", [&](PickleWriter& w) {
           t.key("frames");
           w.begin_list();
           w.begin_dict();
           t.key("name");
           w.str("odd");
           t.key("filename");
           w.str("odd.py");
           t.key("line");
           w.integer(1);
           t.key("fx_original_trace");
           w.integer(5);
           w.end_dict();
           w.end_list();
         });
       }},
      {"an entry whose frames list holds itself",
       [](TraceWriter& t) {
         t.entry("alloc", [&](PickleWriter& w) {
           t.key("frames");
           w.begin_list();
           const uint32_t self = w.last_memo();
           t.frame(1);
           w.get(self);
           w.end_list();
         });
       }},
      {"a dict that is no trace entry",
       [](TraceWriter& t) {
         PickleWriter& w = t.writer();
         w.begin_dict();
         t.key("size");
         w.integer(1);
         w.end_dict();
       }},
  };
  for (const auto& odd : odd_entries) {
    const std::string& name = odd.first;  // not a structured binding: clang 14 cannot capture one
    CAPTURE(name);
    const Read read = read_both_ways(trace_with_odd_entry(3000, 1500, odd.second));
    // The batch holding the odd entry is left whole; the two others are read whole (unless
    // the entry is an error, which ends the read).
    if (read.digest.rfind("error", 0) != 0) CHECK(read.batch_items == 2000);
  }
}

TEST_CASE("batch reader: a memo PUT that overwrites an entry, or a reference into the batch, leaves it") {
  // A PUT of an index already in use (the opcode-by-opcode parse overwrites the entry).
  const Read overwrite = read_both_ways(trace_with_odd_entry(3000, 2500, [](TraceWriter& t) {
    real_shaped_entry(t, 2500);
    t.writer().raw_opcode(0x71, std::string(1, '\x03'));  // BINPUT 3
  }));
  CHECK(overwrite.batch_items == 2000);
  // The same entry dict twice in the list: a reference to an item of the batch being read.
  const Read twice = read_both_ways(
      trace_with_odd_entry(3000, 2500, [](TraceWriter& t) { t.writer().get(real_shaped_entry(t, 2500)); }));
  CHECK(twice.batch_items == 2001);  // 3001 items: the last, alone, ends the list in a batch of its own
}

TEST_CASE("batch reader: an entry of the wrong type fails with the same error, at the same byte") {
  for (const std::string bad_key : {"addr", "size", "stream"}) {
    CAPTURE(bad_key);
    const Read read = read_both_ways(trace_with_odd_entry(3000, 1700, [&](TraceWriter& t) {
      t.entry("alloc", [&](PickleWriter& w) {
        t.key(bad_key);
        if (bad_key == "stream") {
          w.str("cuda:0");
        } else {
          w.integer(-5);
        }
      });
    }));
    CHECK(read.digest.find("error: trace.pickle: trace entry " + bad_key + " is not ") == 0);
    CHECK(read.digest.find(" at byte ") != std::string::npos);
  }
}

TEST_CASE(
    "batch reader: a frames list read again after a PUT replaced one of its frames names the new frame") {
  // Entries 400, 500 and 2500 have the frames list [A, B]; from 500 on its bytes are the same
  // GETs. Entry 1500's list puts a new frame C into A's memo entry (which only the
  // opcode-by-opcode parse does): at 2500 those bytes name [C, B], not the stack they named.
  const std::vector<int> stack = {100001, 100002};
  TraceWriter t(4);
  for (int i = 0; i < 3000; ++i) {
    if (i == 400 || i == 500 || i == 2500) {
      t.entry("alloc", [&](PickleWriter&) {
        t.key("frames");
        t.frames(stack);
      });
    } else if (i == 1500) {
      t.entry("alloc", [&](PickleWriter& w) {
        t.key("frames");
        w.begin_list();
        t.frame(100003);
        std::string index(4, '\0');
        for (int b = 0; b < 4; ++b) index[b] = static_cast<char>((t.frame_memo(100001) >> (8 * b)) & 0xFF);
        w.raw_opcode(0x72, index);  // LONG_BINPUT
        w.end_list();
      });
    } else {
      real_shaped_entry(t, i);
    }
  }
  const std::string bytes = t.finish();
  const Read read = read_both_ways(bytes);
  CHECK(read.batch_items == 2000);  // the batch with the PUT is read opcode by opcode
  ReadOptions options;
  options.threads = 1;
  const Snapshot s = read_snapshot_bytes(bytes, "trace.pickle", options);
  auto innermost = [&](size_t event) {
    const StackId stack_id = s.device_traces.at(0).events.at(event).stack;
    return std::string(s.strings.view(s.frames.get(s.stacks.frames(stack_id).front()).name));
  };
  CHECK(innermost(500) == "frame100001");
  CHECK(innermost(2500) == "frame100003");
}
