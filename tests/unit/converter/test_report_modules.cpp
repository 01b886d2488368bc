// snapscope-convert --report --by module, --export modules-csv and --summary json's
// modules_at_peak on a generated training run whose backward carries forward_frames.
#include <doctest/doctest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "core/gen/snapshot_generator.h"
#include "unit/support/cli_runner.h"

using namespace snapscope;
using namespace snapscope::test;

namespace {

void write_generated(const std::filesystem::path& path) {
  gen::GenOptions options;
  options.events = 2000;
  options.forward_frames = true;
  std::ofstream out(path, std::ios::binary);
  gen::write_snapshot(options, out);
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("cli: --report --by module prints the module tree; a pickle and its directory agree") {
  TempDir dir;
  write_generated(dir / "gen.pickle");
  const CliResult from_pickle = run_cli(dir, "--report gen.pickle --by module --top 0");
  REQUIRE(from_pickle.exit_code == 0);
  CHECK(from_pickle.out.find("Module") != std::string::npos);
  CHECK(from_pickle.out.find(" <- ") != std::string::npos);
  REQUIRE(run_cli(dir, "gen.pickle -o gen.snapscope").exit_code == 0);
  // Over the whole trace the backward's forward stacks name their modules, from either input.
  REQUIRE(run_cli(dir, "--export modules-csv gen.pickle --range 0:1000000 -o p.csv").exit_code == 0);
  REQUIRE(run_cli(dir, "--export modules-csv gen.snapscope --range 0:1000000 -o d.csv").exit_code == 0);
  const std::string csv = read_text(dir / "p.csv");
  CHECK(csv == read_text(dir / "d.csv"));
  CHECK(csv.find("backward (by forward module) > ") != std::string::npos);
}

TEST_CASE("cli: --summary json carries the module tree at the peak, its top level summing to peak_bytes") {
  TempDir dir;
  write_generated(dir / "gen.pickle");
  const CliResult result = run_cli(dir, "gen.pickle -o out --summary json");
  REQUIRE(result.exit_code == 0);
  const nlohmann::json summary = nlohmann::json::parse(result.out);
  for (const nlohmann::json& device : summary["devices"]) {
    const nlohmann::json& rows = device["modules_at_peak"];
    REQUIRE(rows.is_array());
    uint64_t top = 0;
    for (const nlohmann::json& row : rows) {
      if (row["depth"] == 0) top += row["bytes"].get<uint64_t>();
      CHECK(row["path"].get<std::string>().ends_with(row["module"].get<std::string>()));
    }
    CHECK(top == device["peak_bytes"].get<uint64_t>());
  }
}
