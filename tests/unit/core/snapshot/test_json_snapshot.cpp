// JSON snapshots (the dict memory_viz's JSON.parse accepts), plain and gzip: they convert exactly
// as the pickle of the same dict (a hand-built fixture, and every kind of snapshot the generator
// makes, dumped to JSON by Python's own json module), and malformed JSON is one line naming the file.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "converter/conversion_summary.h"
#include "core/convert/convert.h"
#include "core/gen/gzip_ostream.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/sql/readonly_sql.h"
#include "core/store/allocations_json/allocations_json.h"
#include "core/util/zstd_codec.h"
#include "unit/support/generated_snapshot.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;
using snapscope::test::TempDir;
namespace fs = std::filesystem;

namespace {

nlohmann::ordered_json frames_json(const std::vector<test::FixtureFrame>& frames) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& frame : frames)
    out.push_back({{"filename", frame.filename}, {"line", frame.line}, {"name", frame.name}});
  return out;
}

// The same dict test::pickle_bytes writes, keys in its order (as Python's json.dump keeps them).
nlohmann::ordered_json fixture_json(const test::FixtureSnapshot& snapshot) {
  nlohmann::ordered_json segments = nlohmann::ordered_json::array();
  for (const auto& segment : snapshot.segments) {
    uint64_t allocated = 0;
    nlohmann::ordered_json blocks = nlohmann::ordered_json::array();
    for (const auto& block : segment.blocks) {
      if (block.state == "active_allocated") allocated += block.size;
      blocks.push_back({{"size", block.size},
                        {"requested_size", block.requested_size},
                        {"state", block.state},
                        {"frames", frames_json({{"ghost_alloc", "g.py", 7}})}});
    }
    segments.push_back({{"device", segment.device},
                        {"address", segment.address},
                        {"total_size", segment.total_size},
                        {"allocated_size", allocated},
                        {"active_size", allocated},
                        {"requested_size", allocated},
                        {"stream", 0},
                        {"segment_type", "large"},
                        {"segment_pool_id", {0, 0}},
                        {"is_expandable", false},
                        {"frames", nlohmann::ordered_json::array()},
                        {"blocks", blocks}});
  }
  nlohmann::ordered_json traces = nlohmann::ordered_json::array();
  for (const auto& trace : snapshot.traces) {
    nlohmann::ordered_json events = nlohmann::ordered_json::array();
    for (const auto& event : trace) {
      nlohmann::ordered_json entry = {{"action", event.action},
                                      {"addr", event.addr},
                                      {"size", event.size},
                                      {"stream", event.stream},
                                      {"frames", frames_json(event.frames)}};
      if (event.time_us >= 0) entry["time_us"] = event.time_us;
      if (!event.compile_context.empty()) entry["compile_context"] = event.compile_context;
      events.push_back(entry);
    }
    traces.push_back(events);
  }
  nlohmann::ordered_json out = {{"segments", segments}, {"device_traces", traces}};
  if (snapshot.with_allocator_settings) out["allocator_settings"] = {{"max_split_size", -1}};
  return out;
}

// The layout file of a conversion, without the fields that name the input file.
nlohmann::json converted_layout(const fs::path& input, const fs::path& output) {
  const ConvertSummary summary = test::convert_into(input, output);
  const ZstdDecoded text = zstd_decompress(test::read_file(output / kAllocationsFileName), size_t{1} << 30);
  REQUIRE_FALSE(text.error);
  nlohmann::json layout = nlohmann::json::parse(text.content());
  layout.erase("source_file");
  layout.erase("source_bytes");
  layout["summary_devices"] = summary_to_json(summary)["devices"];
  return layout;
}

// Every row of every table of a converted directory's elements.db, as text, but the meta rows
// that name the input file.
std::string database_rows(const fs::path& output) {
  ReadOnlySql sql((output / "elements.db").string());
  const std::atomic<bool> cancel{false};
  const SqlResult tables =
      sql.run("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", cancel, 1000);
  REQUIRE(tables.ok());
  std::string text;
  for (const auto& table : tables.rows) {
    const std::string name = sql_value_text(table[0]);
    const std::string filter = name == "meta" ? " WHERE key NOT IN ('source_file', 'source_bytes')" : "";
    const SqlResult rows = sql.run("SELECT * FROM \"" + name + "\"" + filter, cancel, size_t{1} << 24);
    REQUIRE(rows.ok());
    text += name + "\n";
    for (const auto& row : rows.rows) {
      for (const SqlValue& value : row) text += sql_value_text(value) + "|";
      text += "\n";
    }
  }
  return text;
}

// Python's pickle.load + json.dump of a pickle, the way users turn a snapshot into JSON.
void python_json_dump(const fs::path& pickle, const fs::path& json, bool gzip) {
  const std::string open_out = gzip ? "gzip.open(sys.argv[2], 'wt')" : "open(sys.argv[2], 'w')";
  const std::string command =
      "python3 -c \"import gzip, json, pickle, sys; json.dump(pickle.load(open(sys.argv[1], "
      "'rb')), " +
      open_out + ")\" '" + pickle.string() + "' '" + json.string() + "'";
  REQUIRE_MESSAGE(std::system(command.c_str()) == 0,
                  "python3 (installed with python3-glad) must run: " << command);
}

test::FixtureSnapshot fixture_with_high_address() {
  test::FixtureSnapshot snapshot = test::standard_fixture();
  snapshot.traces[0].push_back({"alloc", 0xffff'8000'0000'1000ULL, 4096, 70, {{"high", "h.py", 1}}, "", 0});
  return snapshot;
}

}  // namespace

TEST_CASE("json snapshot: plain and gzip JSON convert exactly as the pickle of the same dict") {
  TempDir dir;
  const test::FixtureSnapshot snapshot = fixture_with_high_address();
  test::write_file(dir / "s.pickle", test::pickle_bytes(snapshot));
  const std::string json = fixture_json(snapshot).dump(1);
  test::write_file(dir / "s.json", " \n" + json);
  {
    std::ofstream file(dir / "s.json.gz", std::ios::binary);
    gen::GzipStreamBuf gzip(file);
    std::ostream out(&gzip);
    out << json;
  }
  test::write_file(dir / "bom.json", "\xef\xbb\xbf" + json);  // a UTF-8 byte order mark, as some editors save
  const nlohmann::json from_pickle = converted_layout(dir / "s.pickle", dir / "p");
  CHECK(converted_layout(dir / "s.json", dir / "j") == from_pickle);
  CHECK(converted_layout(dir / "bom.json", dir / "b") == from_pickle);
  CHECK(converted_layout(dir / "s.json.gz", dir / "g") == from_pickle);
  const Snapshot read = read_snapshot((dir / "s.json").string());
  REQUIRE(read.device_traces.size() == 2);
  CHECK(read.device_traces[0].events.back().addr == 0xffff'8000'0000'1000ULL);
}

TEST_CASE("json snapshot: gzip JSON padded with much whitespace is parsed as it streams") {
  TempDir dir;
  const test::FixtureSnapshot snapshot = fixture_with_high_address();
  std::string json = fixture_json(snapshot).dump();
  const size_t traces = json.find("\"device_traces\":[");
  REQUIRE(traces != std::string::npos);
  // 256 MiB of blanks inside device_traces: the text is never held whole, only its pickle.
  const std::string blanks(size_t{1} << 20, ' ');
  {
    std::ofstream file(dir / "padded.json.gz", std::ios::binary);
    gen::GzipStreamBuf gzip(file);
    std::ostream out(&gzip);
    out << json.substr(0, traces + 17);
    for (int i = 0; i < 256; ++i) out << blanks;
    out << json.substr(traces + 17);
  }
  test::write_file(dir / "s.pickle", test::pickle_bytes(snapshot));
  CHECK(converted_layout(dir / "padded.json.gz", dir / "g") == converted_layout(dir / "s.pickle", dir / "p"));
}

TEST_CASE("json snapshot: every kind of generated snapshot converts the same from Python's json.dump") {
  TempDir dir;
  gen::GenOptions two_devices;
  two_devices.devices = 2;
  two_devices.seed = 5;
  two_devices.compile_context = true;
  two_devices.user_metadata = true;
  two_devices.host_batches = 60;  // pinned host memory: host_segments, host_traces
  gen::GenOptions untimed;
  untimed.timestamps = false;
  untimed.annotations = false;
  untimed.ghost_parameters = false;
  untimed.protocol = 2;
  untimed.seed = 9;
  gen::GenOptions protocol5;
  protocol5.protocol = 5;
  protocol5.seed = 13;
  const std::pair<const char*, gen::GenOptions> kinds[] = {{"default", gen::GenOptions{}},
                                                           {"two_devices", two_devices},
                                                           {"untimed", untimed},
                                                           {"protocol5", protocol5}};
  for (const auto& kind : kinds) {
    const char* name = kind.first;  // not a structured binding: CAPTURE cannot name one (clang 14)
    gen::GenOptions options = kind.second;
    CAPTURE(name);
    options.events = 2500;
    const fs::path pickle = dir / (std::string(name) + ".pickle");
    test::write_generated(pickle, options);
    const bool gzip = options.seed % 2 == 1;  // default and protocol5: gzip JSON; the others plain
    const fs::path json = dir / (std::string(name) + (gzip ? ".json.gz" : ".json"));
    python_json_dump(pickle, json, gzip);
    const nlohmann::json from_pickle = converted_layout(pickle, dir / (std::string(name) + "-p"));
    CHECK(converted_layout(json, dir / (std::string(name) + "-j")) == from_pickle);
    CHECK(database_rows(dir / (std::string(name) + "-j")) == database_rows(dir / (std::string(name) + "-p")));
  }
}

TEST_CASE("json snapshot: malformed JSON is an InputError naming the file and where") {
  TempDir dir;
  test::write_file(dir / "bad.json", "{\"segments\": [], \"device_traces\": [[{\"action\": }]]}");
  CHECK_THROWS_WITH_AS(read_snapshot((dir / "bad.json").string()),
                       doctest::Contains("bad.json: not valid JSON: parse error at line 1, column"),
                       InputError);
  test::write_file(dir / "list.json", "{\"segments\": 3, \"device_traces\": []}");
  CHECK_THROWS_AS(read_snapshot((dir / "list.json").string()), InputError);
}
