// snapscope-convert --report --by category / --findings / --rules, and the categories and
// findings in --summary json, on the standard fixture pickle.
#include <doctest/doctest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "core/gen/snapshot_generator.h"
#include "unit/support/cli_runner.h"

using namespace snapscope;
using namespace snapscope::test;

TEST_CASE("cli: --report --by category groups the moment table by category, summing to the live bytes") {
  TempDir dir;
  write_file(dir / "in.pickle", pickle_bytes(standard_fixture()));
  const CliResult result = run_cli(dir, "--report in.pickle --by category --findings");
  REQUIRE(result.exit_code == 0);
  CHECK(result.out.find("by category:") != std::string::npos);
  CHECK(result.out.find("Category") != std::string::npos);
  CHECK(result.out.find("findings:\n[peak] Peak ") != std::string::npos);
  const CliResult bad = run_cli(dir, "--report in.pickle --by site");
  CHECK(bad.exit_code == 2);
  CHECK(
      bad.err.starts_with("snapscope-convert: --by needs 'location', 'category' or 'module', got 'site'\n"));
}

TEST_CASE("cli: --report --rules puts matching allocations in the user's category; bad rules fail cleanly") {
  TempDir dir;
  write_file(dir / "in.pickle", pickle_bytes(standard_fixture()));
  write_file(dir / "rules.json", R"({"rules": [{"frame": "alloc_a", "category": "my buffers"}]})");
  const CliResult result = run_cli(dir, "--report in.pickle --by category --at 0 --rules rules.json");
  REQUIRE(result.exit_code == 0);
  CHECK(result.out.find("my buffers") != std::string::npos);
  write_file(dir / "broken.json", R"({"rules": [{"frame": "x"}]})");
  const CliResult broken = run_cli(dir, "--report in.pickle --rules broken.json");
  CHECK(broken.exit_code == 1);
  CHECK(broken.err == "snapscope-convert: broken.json: rule 1: needs a \"category\" name\n");
  CHECK(broken.out.empty());
}

TEST_CASE("cli: --summary json carries every category at the peak, summing to peak_bytes, and the findings") {
  TempDir dir;
  write_file(dir / "in.pickle", pickle_bytes(standard_fixture()));
  const CliResult result = run_cli(dir, "in.pickle -o out --summary json");
  REQUIRE(result.exit_code == 0);
  const nlohmann::json summary = nlohmann::json::parse(result.out);
  REQUIRE(summary["devices"].size() == 2);
  for (const nlohmann::json& device : summary["devices"]) {
    const nlohmann::json& categories = device["categories_at_peak"];
    CHECK(categories.size() == 7);
    uint64_t sum = 0;
    for (const auto& [name, bytes] : categories.items()) sum += bytes.get<uint64_t>();
    CHECK(sum == device["peak_bytes"].get<uint64_t>());
    for (const char* name : {"parameter", "gradient", "optimizer state", "activation", "temporary",
                             "autograd / workspace", "unknown"})
      CHECK(categories.contains(name));
    // The same bytes split by strength: certain + likely + unknown, and per reason.
    const nlohmann::json& strength = device["category_strength_at_peak"];
    uint64_t split = strength["unknown"].get<uint64_t>(), by_reason = 0;
    for (const char* level : {"certain", "likely"}) {
      for (const auto& [name, bytes] : strength[level].items()) {
        CHECK(categories.contains(name));
        split += bytes.get<uint64_t>();
      }
    }
    for (const nlohmann::json& reason : strength["reasons"]) {
      CHECK_FALSE(reason["reason"].get<std::string>().empty());
      CHECK(categories.contains(reason["category"].get<std::string>()));
      by_reason += reason["bytes"].get<uint64_t>();
    }
    CHECK(split == sum);
    CHECK(by_reason == sum);
    REQUIRE(device["findings"].is_array());
    REQUIRE_FALSE(device["findings"].empty());
    CHECK(device["findings"][0]["kind"] == "peak");
  }
}

TEST_CASE("cli: --report names the allocator's settings, the same from a pickle and its directory") {
  TempDir dir;
  FixtureSnapshot plain = standard_fixture();
  plain.with_allocator_settings = false;  // as PyTorch before 2.1 wrote them
  write_file(dir / "plain.pickle", pickle_bytes(plain));
  const CliResult none = run_cli(dir, "--report plain.pickle");
  REQUIRE(none.exit_code == 0);
  CHECK(none.out.find("\nallocator:     not recorded\n") != std::string::npos);
  write_file(dir / "set.pickle", pickle_bytes(standard_fixture()));
  const CliResult set = run_cli(dir, "--report set.pickle");
  CHECK(set.out.find("\nallocator:     max_split_size=unlimited\n") != std::string::npos);
  gen::GenOptions options;
  options.events = 300;
  options.devices = 2;  // the generator's multi-device runs use expandable segments
  std::ofstream out(dir / "gen.pickle", std::ios::binary);
  gen::write_snapshot(options, out);
  out.close();
  const CliResult from_pickle = run_cli(dir, "--report gen.pickle --device 1");
  REQUIRE(from_pickle.exit_code == 0);
  const size_t at = from_pickle.out.find("\nallocator:     PYTORCH_CUDA_ALLOC_CONF=");
  REQUIRE(at != std::string::npos);
  const std::string line = from_pickle.out.substr(at, from_pickle.out.find('\n', at + 1) - at);
  CHECK(line.find("expandable_segments=true") != std::string::npos);
  REQUIRE(run_cli(dir, "gen.pickle -o gen.snapscope").exit_code == 0);
  const CliResult from_dir = run_cli(dir, "--report gen.snapscope --device 1");
  REQUIRE(from_dir.exit_code == 0);
  CHECK(from_dir.out.find(line + "\n") != std::string::npos);
}
