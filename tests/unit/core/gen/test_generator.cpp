// The synthetic snapshot generator: determinism, torch's key layout, and a segment snapshot
// that agrees with the trace. Output is decoded with a small test-only unpickler (protocol 4
// opcodes only), independent of the product's reader.
#include <doctest/doctest.h>
#include <zlib.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "core/gen/gen_options.h"
#include "core/gen/gzip_ostream.h"
#include "core/gen/snapshot_generator.h"

namespace gen = snapscope::gen;

namespace {

struct Value;
using ValuePtr = std::shared_ptr<Value>;
using Dict = std::vector<std::pair<std::string, ValuePtr>>;  // string keys, in insertion order
using List = std::vector<ValuePtr>;
struct Value {
  std::variant<std::monostate, bool, int64_t, double, std::string, List, Dict> v;
  const Dict& dict() const { return std::get<Dict>(v); }
  const List& list() const { return std::get<List>(v); }
  int64_t num() const { return std::get<int64_t>(v); }
  const std::string& str() const { return std::get<std::string>(v); }
  const Value* find(const std::string& key) const {
    for (const auto& [k, val] : dict())
      if (k == key) return val.get();
    return nullptr;
  }
  const Value& at(const std::string& key) const {
    const Value* found = find(key);
    if (found == nullptr) throw std::runtime_error("missing key " + key);
    return *found;
  }
};

// Just enough of protocol 4 to read what the generator writes.
class MiniUnpickler {
 public:
  explicit MiniUnpickler(const std::string& data) : d_(data) {}

  ValuePtr load() {
    for (;;) {
      const uint8_t op = byte();
      switch (op) {
        case 0x80:
          byte();
          break;  // PROTO
        case 0x95:
          pos_ += 8;
          break;  // FRAME
        case '}':
          push(Dict{});
          break;  // EMPTY_DICT
        case ']':
          push(List{});
          break;  // EMPTY_LIST
        case ')':
          push(List{});
          break;  // EMPTY_TUPLE
        case '(':
          marks_.push_back(stack_.size());
          break;
        case 'u':
          set_items(pop_mark());
          break;
        case 's':
          set_items(stack_.size() - 2);
          break;
        case 'e':
          append_items(pop_mark());
          break;
        case 'a':
          append_items(stack_.size() - 1);
          break;
        case 0x86:
          tuple_of(stack_.size() - 2);
          break;  // TUPLE2
        case 0x8c:
          push(text(byte()));
          break;
        case 'X':
          push(text(le(4)));
          break;
        case 'K':
          push(static_cast<int64_t>(le(1)));
          break;
        case 'M':
          push(static_cast<int64_t>(le(2)));
          break;
        case 'J':
          push(static_cast<int64_t>(static_cast<int32_t>(le(4))));
          break;
        case 0x8a:
          push(long1(byte()));
          break;
        case 0x88:
          push(true);
          break;
        case 0x89:
          push(false);
          break;
        case 'N':
          push(std::monostate{});
          break;
        case 'G':
          push(binfloat());
          break;
        case 0x94:
          memo_.push_back(stack_.back());
          break;
        case 'h':
          stack_.push_back(memo_.at(le(1)));
          break;
        case 'j':
          stack_.push_back(memo_.at(le(4)));
          break;
        case '.':
          return stack_.back();
        default:
          throw std::runtime_error("unexpected opcode " + std::to_string(op));
      }
    }
  }

 private:
  uint8_t byte() { return static_cast<uint8_t>(d_.at(pos_++)); }
  uint64_t le(int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= static_cast<uint64_t>(byte()) << (8 * i);
    return v;
  }
  std::string text(uint64_t n) {
    std::string s = d_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  int64_t long1(uint8_t n) {
    uint64_t v = le(n > 8 ? 8 : n);
    if (n > 8) pos_ += n - 8;
    if (n < 8 && (v >> (8 * n - 1)) & 1) v |= ~uint64_t{0} << (8 * n);  // sign-extend
    return static_cast<int64_t>(v);
  }
  double binfloat() {
    uint64_t bits = 0;
    for (int i = 0; i < 8; ++i) bits = (bits << 8) | byte();
    double out;
    std::memcpy(&out, &bits, sizeof out);
    return out;
  }
  template <typename T>
  void push(T value) {
    stack_.push_back(std::make_shared<Value>(Value{std::move(value)}));
  }
  size_t pop_mark() {
    const size_t mark = marks_.back();
    marks_.pop_back();
    return mark;
  }
  void set_items(size_t from) {
    Dict& dict = std::get<Dict>(stack_[from - 1]->v);
    for (size_t i = from; i < stack_.size(); i += 2) dict.emplace_back(stack_[i]->str(), stack_[i + 1]);
    stack_.resize(from);
  }
  void append_items(size_t from) {
    List& list = std::get<List>(stack_[from - 1]->v);
    list.insert(list.end(), stack_.begin() + static_cast<std::ptrdiff_t>(from), stack_.end());
    stack_.resize(from);
  }
  void tuple_of(size_t from) {
    List items(stack_.begin() + static_cast<std::ptrdiff_t>(from), stack_.end());
    stack_.resize(from);
    push(std::move(items));
  }

  const std::string& d_;
  size_t pos_ = 0;
  std::vector<ValuePtr> stack_;
  std::vector<size_t> marks_;
  std::vector<ValuePtr> memo_;
};

std::string generate(const gen::GenOptions& options) {
  std::ostringstream out;
  gen::write_snapshot(options, out);
  return out.str();
}

gen::GenOptions small_options() {
  gen::GenOptions options;
  options.events = 3000;
  options.seed = 7;
  return options;
}

std::vector<std::string> keys_of(const Value& dict) {
  std::vector<std::string> keys;
  for (const auto& [k, v] : dict.dict()) keys.push_back(k);
  return keys;
}

}  // namespace

TEST_CASE("generator: same seed gives the same bytes, another seed other bytes") {
  const std::string a = generate(small_options());
  CHECK(a == generate(small_options()));
  gen::GenOptions other = small_options();
  other.seed = 8;
  CHECK(a != generate(other));
}

TEST_CASE("generator: torch's top-level, event, segment and block keys in torch's order") {
  gen::GenOptions options = small_options();
  options.devices = 2;
  const std::string bytes = generate(options);
  const ValuePtr root = MiniUnpickler(bytes).load();
  CHECK(keys_of(*root) ==
        std::vector<std::string>{"segments", "device_traces", "allocator_settings", "external_annotations"});
  const List& traces = root->at("device_traces").list();
  REQUIRE(traces.size() == 2);
  std::map<std::string, int> actions;
  for (const ValuePtr& trace : traces) {
    for (const ValuePtr& event : trace->list()) {
      const std::string action = event->at("action").str();
      ++actions[action];
      if (action == "segment_free") {
        CHECK(keys_of(*event) == std::vector<std::string>{"action", "addr", "size", "stream", "time_us"});
      } else {
        CHECK(keys_of(*event) ==
              std::vector<std::string>{"action", "addr", "size", "stream", "time_us", "frames"});
        const size_t depth = event->at("frames").list().size();
        CHECK(depth >= 20);
        CHECK(depth <= 150);
      }
    }
  }
  CHECK(actions["alloc"] > 500);
  CHECK(actions["free_requested"] == actions["free_completed"]);
  CHECK(actions["segment_alloc"] > 0);
  CHECK(actions["segment_map"] > 0);  // device 1 uses expandable segments

  const Value& segment = *root->at("segments").list().at(0);
  CHECK(keys_of(segment) == std::vector<std::string>{"device", "address", "total_size", "allocated_size",
                                                     "active_size", "requested_size", "stream",
                                                     "segment_type", "segment_pool_id", "is_expandable",
                                                     "blocks", "frames"});
  CHECK(keys_of(*segment.at("blocks").list().at(0)) ==
        std::vector<std::string>{"address", "size", "requested_size", "state", "frames"});
  const Value& frame = *traces[0]->list().at(0)->at("frames").list().at(0);
  CHECK(keys_of(frame) == std::vector<std::string>{"name", "filename", "line"});

  const List& annotations = root->at("external_annotations").list();
  REQUIRE(!annotations.empty());
  CHECK(annotations[0]->at("stage").str() == "START");
  CHECK(annotations[0]->at("name").str() == "forward");
}

TEST_CASE("generator: blocks tile their segments and active blocks are exactly the live trace allocations") {
  gen::GenOptions options = small_options();
  options.events = 6000;
  options.ghost_parameters = false;  // every active block then has a trace alloc
  const ValuePtr root = MiniUnpickler(generate(options)).load();
  std::map<int64_t, int64_t> live;  // addr -> size, replaying the trace
  for (const ValuePtr& event : root->at("device_traces").list().at(0)->list()) {
    const std::string& action = event->at("action").str();
    if (action == "alloc") live[event->at("addr").num()] = event->at("size").num();
    if (action == "free_completed") CHECK(live.erase(event->at("addr").num()) == 1);
  }
  std::map<int64_t, int64_t> active;
  for (const ValuePtr& segment : root->at("segments").list()) {
    int64_t address = segment->at("address").num();
    int64_t allocated = 0;
    for (const ValuePtr& block : segment->at("blocks").list()) {
      CHECK(block->at("address").num() == address);
      address += block->at("size").num();
      if (block->at("state").str() != "inactive") {
        active[block->at("address").num()] = block->at("size").num();
        allocated += block->at("size").num();
      }
    }
    CHECK(address == segment->at("address").num() + segment->at("total_size").num());
    CHECK(allocated == segment->at("allocated_size").num());
  }
  CHECK(!live.empty());
  CHECK(live == active);
}

TEST_CASE(
    "generator: --mem-pool puts each layer's gathered parameters in a private pool that keeps its segments") {
  gen::GenOptions options = small_options();
  options.events = 6000;
  options.ghost_parameters = false;
  options.mem_pool = true;
  const ValuePtr root = MiniUnpickler(generate(options)).load();
  std::map<int64_t, int64_t> pool_segments;  // address -> total_size of the (0, 1) pool's segments
  for (const ValuePtr& segment : root->at("segments").list()) {
    const List& pool = segment->at("segment_pool_id").list();
    if (pool.at(0)->num() == 0 && pool.at(1)->num() == 1) {
      pool_segments[segment->at("address").num()] = segment->at("total_size").num();
    }
  }
  REQUIRE(!pool_segments.empty());
  const auto in_pool = [&](int64_t address) {
    auto after = pool_segments.upper_bound(address);
    if (after == pool_segments.begin()) return false;
    --after;
    return address < after->first + after->second;
  };
  size_t pool_allocs = 0, pool_segment_allocs = 0;
  std::map<int64_t, int64_t> live;
  for (const ValuePtr& event : root->at("device_traces").list().at(0)->list()) {
    const std::string& action = event->at("action").str();
    const int64_t address = event->at("addr").num();
    if (action == "alloc") {
      live[address] = event->at("size").num();
      pool_allocs += in_pool(address) ? 1 : 0;
    }
    if (action == "free_completed") CHECK(live.erase(address) == 1);
    if (action == "segment_alloc") pool_segment_allocs += pool_segments.count(address);
    if (action == "segment_free") CHECK_FALSE(in_pool(address));  // empty_cache keeps a pool's segments
  }
  CHECK(pool_allocs > 10);
  CHECK(pool_segment_allocs == pool_segments.size());  // every pool segment was made in the trace
}

TEST_CASE("generator: repeated frames and strings are memo references") {
  const std::string bytes = generate(small_options());
  size_t short_strings = 0;
  size_t memo_gets = 0;
  // Count the opcodes a CPython-produced torch dump is dominated by.
  for (size_t i = 0; i + 1 < bytes.size(); ++i) {
    if (bytes[i] == 'j' && i + 5 < bytes.size() && bytes[i + 5] == 'j') ++memo_gets;  // LONG_BINGET runs
    if (static_cast<uint8_t>(bytes[i]) == 0x8c) ++short_strings;
  }
  CHECK(memo_gets > 10000);
  CHECK(short_strings < 5000);
  CHECK(bytes.size() < 3000 * 400);  // a few hundred bytes per event, as in real dumps
}

TEST_CASE("generator: options for timestamps, metadata and protocol") {
  gen::GenOptions options = small_options();
  options.timestamps = false;
  options.compile_context = true;
  options.user_metadata = true;
  const ValuePtr root = MiniUnpickler(generate(options)).load();
  CHECK(root->find("external_annotations") == nullptr);
  const Value& event = *root->at("device_traces").list().at(0)->list().at(1);
  CHECK(event.find("time_us") == nullptr);
  CHECK(event.at("compile_context").str() == "N/A");
  CHECK(event.at("user_metadata").str() == "");

  options.protocol = 2;
  const std::string proto2 = generate(options);
  CHECK(static_cast<uint8_t>(proto2[0]) == 0x80);
  CHECK(proto2[1] == 2);
  CHECK(proto2.back() == '.');
}

TEST_CASE("generator: target size is met within 10 percent") {
  gen::GenOptions options = small_options();
  options.target_bytes = 3'000'000;
  const double size = static_cast<double>(generate(options).size());
  CHECK(size > 2'700'000.0);
  CHECK(size < 3'300'000.0);
}

TEST_CASE("generator: gzip output inflates to the plain pickle") {
  const std::string plain = generate(small_options());
  std::ostringstream compressed;
  {
    gen::GzipOStream gz(compressed);
    gen::write_snapshot(small_options(), gz);
    CHECK(gz.finish());
  }
  const std::string gz_bytes = compressed.str();
  REQUIRE(gz_bytes.size() > 18);
  CHECK(static_cast<uint8_t>(gz_bytes[0]) == 0x1f);
  CHECK(static_cast<uint8_t>(gz_bytes[1]) == 0x8b);
  z_stream zs{};
  REQUIRE(inflateInit2(&zs, 15 + 16) == Z_OK);
  std::string inflated(plain.size() + 16, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz_bytes.data()));
  zs.avail_in = static_cast<uInt>(gz_bytes.size());
  zs.next_out = reinterpret_cast<Bytef*>(inflated.data());
  zs.avail_out = static_cast<uInt>(inflated.size());
  CHECK(inflate(&zs, Z_FINISH) == Z_STREAM_END);
  inflated.resize(zs.total_out);
  inflateEnd(&zs);
  CHECK(inflated == plain);
}
