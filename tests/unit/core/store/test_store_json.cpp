// allocations.json: exact round trips through the columnar writer and the SAX reader, and
// one-line errors for files that are not what they claim to be.
#include <doctest/doctest.h>

#include <limits>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/snapshot/snapshot_reader.h"
#include "core/store/allocations_json/allocations_json.h"
#include "core/util/zstd_codec.h"
#include "unit/support/replay_checks.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;
using snapscope::test::check_same_replay;
using snapscope::test::TempDir;

namespace {

void check_same_file(const AllocationsFile& a, const AllocationsFile& b) {
  CHECK(a.format_version == b.format_version);
  CHECK(a.source_file == b.source_file);
  CHECK(a.source_bytes == b.source_bytes);
  REQUIRE(a.devices.size() == b.devices.size());
  for (size_t i = 0; i < a.devices.size(); ++i) {
    CHECK(a.devices[i].device == b.devices[i].device);
    check_same_replay(a.devices[i].blocks, b.devices[i].blocks);
    check_same_replay(a.devices[i].segments, b.devices[i].segments);
  }
}

ReplayElement element(uint64_t addr, uint64_t size, EventIndex alloc_event, EventIndex free_event,
                      Origin origin) {
  ReplayElement e;
  e.addr = addr;
  e.size = size;
  e.alloc_event = alloc_event;
  e.free_event = free_event;
  e.origin = origin;
  return e;
}

// Every field at an unusual value: addresses above 2^63, kNoIndex, -1 events, missing times.
AllocationsFile edge_case_file() {
  AllocationsFile file;
  file.source_file = "dir/with \"quotes\"\\and\nnewline.pickle";
  file.source_bytes = std::numeric_limits<uint64_t>::max();
  DeviceLayout& layout = file.devices.emplace_back();
  layout.device = 3;
  layout.blocks.device = 3;
  layout.blocks.kind = TimelineKind::Blocks;
  layout.blocks.elements = {element(0xFFFF'FFFF'FFFF'FF00ULL, 1ULL << 40, 0, 5, Origin::Traced),
                            element(0x10, 7, -1, 2, Origin::FreeWithoutAlloc),
                            element(0x7f00'0000'0000, 512, -1, -1, Origin::SnapshotBlock)};
  layout.blocks.elements[1].merged_free = true;
  layout.blocks.element_blocks = {{2, 9}};
  layout.blocks.element_segments = {{2, 4}};
  layout.blocks.elements[0].stack = 123456;
  layout.blocks.initial_stack = {2, 1};
  layout.blocks.actions = {{0}, {1}, {0}};  // events 0, 2 and 5, from the elements
  layout.blocks.action_time_us = ActionTimes{-5, kNoTime, 1'700'000'000'000'000};
  layout.segments.device = 3;
  layout.segments.kind = TimelineKind::Segments;
  layout.segments.elements = {element(0x100, 2 << 20, -1, -1, Origin::SnapshotSegment)};
  layout.segments.element_segments = {{0, 0}};
  layout.segments.initial_stack = {};
  layout.segments.actions = {{0}};
  layout.segments.synthetic_action = true;
  return file;
}

std::string write_and_read_text(const AllocationsFile& file, const TempDir& dir) {
  write_allocations_json(file, (dir / "a.json").string());
  return test::read_file(dir / "a.json");
}

// `text` with the first `from` replaced by `to` (which must be there: a stale needle would
// silently test the good file).
std::string edited(std::string text, std::string_view from, std::string_view to) {
  const size_t at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, "no '" << std::string(from) << "' in the test file");
  return text.replace(at, from.size(), to);
}

std::string read_error(const std::string& path) {
  try {
    read_allocations_json(path);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("allocations.json: edge-case values round-trip exactly") {
  TempDir dir;
  const AllocationsFile original = edge_case_file();
  write_allocations_json(original, (dir / "a.json").string());
  check_same_file(original, read_allocations_json((dir / "a.json").string()));
}

TEST_CASE("allocations.json: columns are arrays of numbers, not arrays of objects") {
  TempDir dir;
  const nlohmann::json doc = nlohmann::json::parse(write_and_read_text(edge_case_file(), dir));
  CHECK(doc["format"] == "snapscope-allocations");
  CHECK(doc["version"] == kAllocationsJsonVersion);
  const auto& blocks = doc["devices"][0]["blocks"];
  CHECK(blocks["elements"]["size"] == nlohmann::json({1ULL << 40, 7, 512}));
  CHECK(blocks["elements"]["block"] == nlohmann::json({2, 9}));  // sparse: (index, value) pairs
  CHECK(blocks["actions"]["elem_delta"] == nlohmann::json({0, 1, -1}));
  CHECK(blocks["actions"]["event_delta"] == nlohmann::json::array());  // derived from the elements
  // Version 3 codings: addresses and alloc events as wrapping deltas, free events after their
  // alloc event, source_event left out when it is the usual event, sparse columns as
  // (index, value) pairs of the non-default values.
  CHECK(blocks["elements"]["addr"] ==
        nlohmann::json({-256, static_cast<int64_t>(0x10 + 0x100ULL), 0x7f00'0000'0000LL - 0x10}));
  CHECK(blocks["elements"]["alloc_event"] == nlohmann::json({0, -1, 0}));
  CHECK(blocks["elements"]["free_event"] == nlohmann::json({5, 2, -1}));
  CHECK(blocks["elements"]["origin"] == nlohmann::json({1, 1, 2, 2}));
  CHECK(blocks["elements"]["source_event"] == nlohmann::json::array());
  CHECK(doc["devices"][0]["segments"]["elements"]["merged_free"] == nlohmann::json::array());
  CHECK(doc["devices"][0]["segments"]["elements"]["block"] == nlohmann::json::array());
  CHECK(doc["devices"][0]["segments"]["elements"]["segment"] == nlohmann::json({0, 0}));
}

TEST_CASE("allocations.json: all-default sparse columns round-trip as []") {
  TempDir dir;
  AllocationsFile original = edge_case_file();
  for (ReplayElement& e : original.devices[0].blocks.elements) e.merged_free = false;
  const nlohmann::json doc = nlohmann::json::parse(write_and_read_text(original, dir));
  CHECK(doc["devices"][0]["blocks"]["elements"]["merged_free"] == nlohmann::json::array());
  check_same_file(original, read_allocations_json((dir / "a.json").string()));
}

TEST_CASE("allocations.json: a written source_event column must be the derived one") {
  TempDir dir;
  const std::string good = write_and_read_text(edge_case_file(), dir);
  const std::string path = (dir / "b.json").string();
  // The alloc event of a traced element, the free of a free without alloc, none for the rest.
  test::write_file(path, edited(good, "\"source_event\":[]", "\"source_event\":[0,2,-1]"));
  check_same_file(edge_case_file(), read_allocations_json(path));
  std::filesystem::remove(path);
  test::write_file(path, edited(good, "\"source_event\":[]", "\"source_event\":[4,2,-1]"));
  CHECK(read_error(path) == path + ": invalid value in column elements.source_event");
}

TEST_CASE("allocations.json: a written event_delta column must be the elements' events") {
  TempDir dir;
  const std::string good = write_and_read_text(edge_case_file(), dir);
  const std::string path = (dir / "b.json").string();
  const auto read_with_events = [&](std::string_view events) {
    std::filesystem::remove(path);
    test::write_file(path, edited(good, "\"event_delta\":[]", "\"event_delta\":" + std::string(events)));
    return read_error(path);
  };
  // Alloc of element 0 at event 0, free of element 1 (on the initial stack) at 2, free of 0 at 5:
  // what version 3 files hold. They are still read.
  CHECK(read_with_events("[0,2,3]").empty());
  check_same_file(edge_case_file(), read_allocations_json(path));
  test::write_file(path, edited(test::read_file(path), "\"version\":4", "\"version\":3"));
  check_same_file(edge_case_file(), read_allocations_json(path));
  CHECK(read_with_events("[0,2,4]") == path + ": invalid action event");
  // Event indices are 32-bit in memory (docs/FORMAT.md): larger ones are refused, not cut.
  CHECK(read_with_events("[2147483648,2,3]") == path + ": invalid action event");
  CHECK(read_with_events("[0,2]") == path + ": column actions.event_delta has 2 values, expected 3");
}

TEST_CASE("allocations.json: a snapshot's derived layouts round-trip exactly") {
  TempDir dir;
  test::write_file(dir / "s.pickle", test::pickle_bytes(test::standard_fixture()));
  const AllocationsFile original = make_allocations_file(read_snapshot((dir / "s.pickle").string()));
  REQUIRE(original.devices.size() == 2);
  CHECK(original.devices[0].blocks.elements.size() == 5);
  write_allocations_json(original, (dir / "a.json").string());
  check_same_file(original, read_allocations_json((dir / "a.json").string()));
}

TEST_CASE("allocations.json.zst: a .zst name writes Zstandard, read back as the same file") {
  TempDir dir;
  const AllocationsFile original = edge_case_file();
  write_allocations_json(original, (dir / "a.json").string());
  write_allocations_json(original, (dir / "a.json.zst").string());
  const std::string packed = test::read_file(dir / "a.json.zst");
  CHECK(starts_zstd_frame(packed));
  CHECK_FALSE(starts_zstd_frame(test::read_file(dir / "a.json")));
  const ZstdDecoded text = zstd_decompress(packed, 1 << 20);
  REQUIRE_FALSE(text.error);
  CHECK(text.content() == test::read_file(dir / "a.json"));
  check_same_file(original, read_allocations_json((dir / "a.json.zst").string()));
  // The content decides, not the name: Zstandard under a plain name reads the same.
  test::write_file(dir / "renamed.json", packed);
  check_same_file(original, read_allocations_json((dir / "renamed.json").string()));
}

TEST_CASE("allocations.json.zst: damaged or oversized content gives one line naming the file") {
  TempDir dir;
  write_allocations_json(edge_case_file(), (dir / "a.json.zst").string());
  const std::string packed = test::read_file(dir / "a.json.zst");
  const std::string path = (dir / "bad.json.zst").string();

  test::write_file(path, packed.substr(0, packed.size() - 9));
  CHECK(read_error(path) == path + ": truncated zstd data");

  std::filesystem::remove(path);
  test::write_file(path, packed);
  CHECK_THROWS_WITH_AS(read_allocations_json(path, nullptr, 100),
                       (path + ": decompresses to more than 100 bytes").c_str(), InputError);

  // Well-formed Zstandard around text that is not the format: the parser's error, same file name.
  std::filesystem::remove(path);
  ZstdEncoder encoder;
  std::string not_json;
  encoder.compress_frame("[1, 2, 3]", not_json);
  test::write_file(path, not_json);
  CHECK(read_error(path).starts_with(path + ": "));
  CHECK(read_error(path).find('\n') == std::string::npos);
}

TEST_CASE("allocations.json.zst: a directory's layout file is the .zst one, else an older plain one") {
  TempDir dir;
  CHECK(allocations_file_in(dir.path()).empty());
  test::write_file(dir / kPlainAllocationsFileName, "{}");
  CHECK(allocations_file_in(dir.path()) == dir / "allocations.json");
  test::write_file(dir / kAllocationsFileName, "{}");
  CHECK(allocations_file_in(dir.path()) == dir / "allocations.json.zst");
}

TEST_CASE("allocations.json: make_allocations_file honours only_device") {
  TempDir dir;
  test::write_file(dir / "s.pickle", test::pickle_bytes(test::standard_fixture()));
  const AllocationsFile file = make_allocations_file(read_snapshot((dir / "s.pickle").string()), 1);
  REQUIRE(file.devices.size() == 1);
  CHECK(file.devices[0].device == 1);
  CHECK(file.devices[0].blocks.elements.size() == 1);
}

TEST_CASE("allocations.json: bad files give one-line errors naming the file") {
  TempDir dir;
  const std::string good = write_and_read_text(edge_case_file(), dir);
  const auto error_for = [&](const std::string& text) {
    const std::string path = (dir / "bad.json").string();
    std::filesystem::remove(path);
    test::write_file(path, text);
    return read_error(path);
  };
  const std::string prefix = (dir / "bad.json").string() + ": ";

  const std::string version_2 = edited(good, "\"version\":4", "\"version\":2");
  CHECK(error_for(version_2) == prefix + "unsupported format version 2 (expected 3 to 4)");
  const std::string version_5 = edited(good, "\"version\":4", "\"version\":5");
  CHECK(error_for(version_5) == prefix + "unsupported format version 5 (expected 3 to 4)");

  CHECK(error_for(good.substr(0, good.size() / 2)).starts_with(prefix + "invalid JSON"));
  CHECK(error_for("{\"format\":\"something-else\",\"version\":1}") ==
        prefix + "not a snapscope allocations file");

  const std::string short_column = edited(good, "\"size\":[", "\"size\":[1,");
  CHECK(error_for(short_column).find("column elements.size has 4 values, expected 3") != std::string::npos);

  const std::string bad_elem = edited(good, "\"elem_delta\":[0", "\"elem_delta\":[7");
  CHECK(error_for(bad_elem) == prefix + "element index out of range in actions");

  const std::string bad_origin = edited(good, "\"origin\":[1,1", "\"origin\":[1,9");
  CHECK(error_for(bad_origin) == prefix + "invalid value in column elements.origin");

  const std::string unordered_sparse = edited(good, "\"origin\":[1,1,2,2", "\"origin\":[2,2,1,1");
  CHECK(error_for(unordered_sparse) ==
        prefix + "column elements.origin: element index out of order or range");

  const std::string odd_sparse = edited(good, "\"origin\":[1,1,2,2", "\"origin\":[1,1,2");
  CHECK(error_for(odd_sparse) == prefix + "column elements.origin is not a list of (index, value) pairs");

  // Columns are parsed apart from the rest of the document: what they hold is still checked.
  const std::string nested = edited(good, "\"size\":[", "\"size\":[[1],");
  CHECK(error_for(nested) == prefix + "unexpected nested array in a number column");
  const std::string text_value = edited(good, "\"size\":[", "\"size\":[\"]\",");
  CHECK(error_for(text_value) == prefix + "unexpected non-number in a number column");
  const std::string float_value = edited(good, "\"size\":[", "\"size\":[1.5,");
  CHECK(error_for(float_value) == prefix + "unexpected floating-point number");

  const std::string twice = edited(good, "\"size\":[", "\"size\":[1,2,3],\"size\":[");
  CHECK(error_for(twice).find("column elements.size has 6 values, expected 3") != std::string::npos);

  // A count far beyond what the columns hold is an error, not an attempt to allocate for it.
  const std::string huge_count = edited(good, "\"element_count\":3", "\"element_count\":4000000000");
  CHECK(error_for(huge_count) == prefix + "column elements.addr has 3 values, expected 4000000000");

  // Event indices are 32-bit in memory (docs/FORMAT.md): larger ones are refused, not cut.
  const std::string huge_alloc = edited(good, "\"alloc_event\":[0", "\"alloc_event\":[2147483648");
  CHECK(error_for(huge_alloc) == prefix + "invalid value in column elements.alloc_event");
  // Times are delta-coded: a sum past int64 is an error, not undefined behaviour.
  const std::string time_overflow =
      edited(good, "\"time_us_delta\":[", "\"time_us_delta\":[9223372036854775807,2,");
  CHECK(error_for(time_overflow) == prefix + "time_us_delta sums past the 64-bit time range");
  const std::string long_actions = edited(good, "\"elem_delta\":[0", "\"elem_delta\":[0,0");
  CHECK(error_for(long_actions) == prefix + "column actions.elem_delta has 4 values, expected 3");

  // With both an element and an action error, the element one (earlier in the file) is reported.
  const std::string two_errors = edited(bad_elem, "\"origin\":[1,1", "\"origin\":[1,9");
  CHECK(error_for(two_errors) == prefix + "invalid value in column elements.origin");

  CHECK(read_error((dir / "missing.json").string()).starts_with((dir / "missing.json").string() + ": "));
}

TEST_CASE("allocations.json: the reading progress ends at the whole file") {
  TempDir dir;
  test::write_file(dir / "s.pickle", test::pickle_bytes(test::standard_fixture()));
  write_allocations_json(make_allocations_file(read_snapshot((dir / "s.pickle").string())),
                         (dir / "a.json").string());
  std::atomic<float> fraction = 0;
  read_allocations_json((dir / "a.json").string(), &fraction);
  CHECK(fraction == doctest::Approx(1.0));
}
