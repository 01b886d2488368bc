// The SQL console and the allocator panel through the real window: xdotool focuses the console
// (Ctrl+E), types queries, runs them (Ctrl+Enter), moves the time cursor (End / Home) and reads
// the panels back with Ctrl+K; every number is checked against a direct sqlite3 query or the core.
#include <doctest/doctest.h>

#include <sqlite3.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/allocator/db_event_source.h"
#include "core/analysis/state_mapping.h"
#include "core/document/document.h"
#include "gui_harness.h"

using namespace snapscope;
using namespace snapscope::gui_test;
namespace fs = std::filesystem;

namespace {

int64_t sqlite_count(const fs::path& db, const std::string& sql) {
  sqlite3* handle = nullptr;
  REQUIRE(sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* statement = nullptr;
  REQUIRE(sqlite3_prepare_v2(handle, sql.c_str(), -1, &statement, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(statement) == SQLITE_ROW);
  const int64_t count = sqlite3_column_int64(statement, 0);
  sqlite3_finalize(statement);
  sqlite3_close(handle);
  return count;
}

std::string type(const std::string& text) { return "xdotool type --delay 60 " + shell_quote(text); }

}  // namespace

TEST_CASE("xdotool: the SQL console counts what sqlite counts and refuses writes") {
  const fs::path sandbox = make_sandbox("sql-console");
  const std::string input = fixture_pickle(sandbox).string();
  const std::string key = "press ";
  const std::string query = "SELECT elem, size FROM allocations WHERE size > 100000";
  const std::string out = drive_window(
      sandbox, input,
      {key + "ctrl+e", type(query), "hold ctrl+Return", "sleep 1", key + "ctrl+k", key + "ctrl+e",
       "hold ctrl+a", type("DELETE FROM events"), "hold ctrl+Return", "sleep 1", key + "ctrl+k"});
  const auto lines = json_lines(out);
  REQUIRE(lines.size() == 2);
  const auto document = open_converted(sandbox, input);
  const fs::path db = document->elements_db();
  const int64_t expected = sqlite_count(db, "SELECT count(*) FROM (" + query + ")");
  CHECK(expected > 0);
  const auto& select = lines[0]["sql"];
  CHECK(select["error"] == "");
  CHECK(select["total_rows"] == expected);
  CHECK(select["columns"] == nlohmann::json::array({"elem", "size"}));
  const auto& write = lines[1]["sql"];
  CHECK(write["error"].get<std::string>().find("not authorized") != std::string::npos);
  CHECK(sqlite_count(db, "SELECT count(*) FROM events") > 0);
}

TEST_CASE("xdotool: End / Home show the allocator state the core computes at those events") {
  const fs::path sandbox = make_sandbox("allocator-panel");
  const std::string input = fixture_pickle(sandbox).string();
  const std::string key = "press ";
  const std::string out =
      drive_window(sandbox, input, {key + "End", key + "ctrl+k", key + "Home", key + "ctrl+k"});
  const auto lines = json_lines(out);
  REQUIRE(lines.size() == 2);
  const auto document = open_converted(sandbox, input);
  const DeviceDocument& device = document->devices.front();
  const std::string db = document->elements_db().string();
  const AllocatorState final_state = final_state_from_db(db, device.device);
  const auto& end = lines[0]["allocator"];
  REQUIRE(end.is_object());
  CHECK(end["event"] == static_cast<int64_t>(device.blocks.action_event(device.blocks.action_count() - 1)));
  CHECK(end["segments"] == final_state.segments().size());
  CHECK(end["blocks"] == final_state.blocks().size());
  CHECK(end["reserved"] == final_state.reserved_bytes());
  CHECK(end["allocated"] == final_state.allocated_bytes());
  // Home: the state before the first traced action, as the core computes it from elements.db.
  const auto history = allocator_history_from_db(db, device.device);
  const auto& start = lines[1]["allocator"];
  const int64_t start_event = start["event"];
  const AllocatorState expected = history->after_event(start_event);
  CHECK(start_event < end["event"].get<int64_t>());
  CHECK(start["segments"] == expected.segments().size());
  CHECK(start["blocks"] == expected.blocks().size());
  CHECK(start["allocated"] == expected.allocated_bytes());
  CHECK(start["reserved"] == expected.reserved_bytes());
  CHECK(start["reserved"] == device.segments.total_at_state(state_after_event(device.segments, start_event)));
}

TEST_CASE("xdotool: the allocator state knows which segments belong to a private pool") {
  const fs::path sandbox = make_sandbox("allocator-pools");
  const fs::path input = sandbox / "pools.json";
  const uint64_t mib = uint64_t{1} << 20;
  const auto segment = [&](uint64_t address, const nlohmann::json& pool) {
    return nlohmann::json{
        {"device", 0},
        {"address", address},
        {"total_size", 2 * mib},
        {"stream", 0},
        {"segment_pool_id", pool},
        {"blocks", {{{"size", 2 * mib}, {"requested_size", 2 * mib}, {"state", "active_allocated"}}}}};
  };
  const auto event = [&](const char* action, uint64_t address) {
    return nlohmann::json{{"action", action}, {"addr", address}, {"size", 2 * mib}, {"stream", 0}};
  };
  // A CUDA graph's pool (1, 5) and the default pool; the trace allocates one block in each.
  const nlohmann::json snapshot = {{"segments", {segment(0x10000000, {1, 5}), segment(0x20000000, {0, 0})}},
                                   {"device_traces",
                                    {{event("segment_alloc", 0x10000000), event("alloc", 0x10000000),
                                      event("segment_alloc", 0x20000000), event("alloc", 0x20000000)}}}};
  std::ofstream(input) << snapshot.dump();
  const auto lines = json_lines(drive_window(sandbox, input.string(), {"press End", "press ctrl+k"}));
  REQUIRE(lines.size() == 1);
  const auto& end = lines[0]["allocator"];
  REQUIRE(end.is_object());
  CHECK(end["segments"] == 2);
  CHECK(end["private_pool_segments"] == 1);
}
