// The conversion pipeline as a library: complete output or none, --force and --device
// semantics, and a summary that agrees with Timeline.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/convert/convert.h"
#include "core/convert/staging_dir.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/store/allocations_json/allocations_json.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;
using snapscope::test::TempDir;

namespace {

ConvertOptions options_for(const TempDir& dir, const std::string& input = "s.pickle") {
  ConvertOptions options;
  options.input = (dir / input).string();
  options.output_dir = (dir / "out").string();
  return options;
}

void write_fixture(const TempDir& dir) {
  test::write_file(dir / "s.pickle", test::pickle_bytes(test::standard_fixture()));
}

std::string convert_error(const ConvertOptions& options) {
  try {
    convert_snapshot(options);
  } catch (const std::exception& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("convert: writes exactly elements.db and allocations.json, and no temp dir") {
  TempDir dir;
  write_fixture(dir);
  const ConvertSummary summary = convert_snapshot(options_for(dir));
  CHECK(dir.entries() == std::vector<std::string>{"out", "s.pickle"});
  CHECK(TempDir::entries_of(dir / "out") == std::vector<std::string>{"allocations.json.zst", "elements.db"});
  CHECK(summary.db_bytes == std::filesystem::file_size(dir / "out" / "elements.db"));
  CHECK(summary.json_bytes == std::filesystem::file_size(dir / "out" / "allocations.json.zst"));
  CHECK(read_allocations_json((dir / "out" / "allocations.json.zst").string()).devices.size() == 2);
}

TEST_CASE("convert: the summary agrees with Timeline") {
  TempDir dir;
  write_fixture(dir);
  const ConvertSummary summary = convert_snapshot(options_for(dir));
  const Snapshot snapshot = read_snapshot((dir / "s.pickle").string());
  CHECK(summary.events == 9);
  CHECK(summary.first_time_us == 10);
  CHECK(summary.last_time_us == 110);
  REQUIRE(summary.devices.size() == 2);
  for (const DeviceStats& stats : summary.devices) {
    const Timeline blocks(derive_replay_input(snapshot, stats.device, TimelineKind::Blocks));
    const Timeline segments(derive_replay_input(snapshot, stats.device, TimelineKind::Segments));
    CHECK(stats.allocations == blocks.element_count());
    CHECK(stats.peak_bytes == blocks.peak_bytes());
    CHECK(stats.peak_event == blocks.action_event(blocks.peak_action()));
    CHECK(stats.initial_bytes == blocks.total_at_state(0));
    CHECK(stats.final_bytes == blocks.total_at_state(blocks.action_count()));
    CHECK(stats.peak_reserved_bytes == segments.peak_bytes());
  }
  CHECK(summary.devices[0].pre_existing() == 2);  // X freed without alloc + the ghost block
  CHECK(summary.devices[0].reserved_bytes == 2 << 20);
  CHECK(summary.devices[1].final_bytes == 0);
}

TEST_CASE("convert: an existing output needs force, and force replaces it") {
  TempDir dir;
  write_fixture(dir);
  std::filesystem::create_directory(dir / "out");
  test::write_file(dir / "out" / "allocations.json.zst", "old");
  CHECK(convert_error(options_for(dir)) ==
        (dir / "out").string() + ": already exists (use --force to replace it)");
  CHECK(test::read_file(dir / "out" / "allocations.json.zst") == "old");

  ConvertOptions force = options_for(dir);
  force.force = true;
  convert_snapshot(force);
  CHECK(test::read_file(dir / "out" / "allocations.json.zst") != "old");
  CHECK(dir.entries() == std::vector<std::string>{"out", "s.pickle"});
}

TEST_CASE("convert: force never replaces something that is not an earlier conversion") {
  TempDir dir;
  write_fixture(dir);
  std::filesystem::create_directory(dir / "out");
  test::write_file(dir / "out" / "thesis.tex", "precious");
  ConvertOptions force = options_for(dir);
  force.force = true;
  CHECK(convert_error(force).find("refusing to replace it") != std::string::npos);
  CHECK(test::read_file(dir / "out" / "thesis.tex") == "precious");
}

TEST_CASE("convert: device restricts the output; an unknown device is an input error") {
  TempDir dir;
  write_fixture(dir);
  ConvertOptions one = options_for(dir);
  one.device = 1;
  const ConvertSummary summary = convert_snapshot(one);
  REQUIRE(summary.devices.size() == 1);
  CHECK(summary.devices[0].device == 1);
  CHECK(summary.events == 2);
  const AllocationsFile file = read_allocations_json((dir / "out" / "allocations.json.zst").string());
  REQUIRE(file.devices.size() == 1);
  CHECK(file.devices[0].device == 1);

  ConvertOptions missing = options_for(dir);
  missing.output_dir = (dir / "out7").string();
  missing.device = 7;
  CHECK(convert_error(missing) == missing.input + ": device 7 is not in the snapshot");
  CHECK(dir.entries() == std::vector<std::string>{"out", "s.pickle"});
}

TEST_CASE("convert: bad input leaves nothing behind") {
  TempDir dir;
  const std::string good = test::pickle_bytes(test::standard_fixture());
  test::write_file(dir / "truncated.pickle", good.substr(0, good.size() * 2 / 3));
  test::write_file(dir / "text.pickle", "hello, I am not a pickle\n");
  for (const char* name : {"truncated.pickle", "text.pickle", "absent.pickle"}) {
    CAPTURE(name);
    const std::string error = convert_error(options_for(dir, name));
    CHECK(error.starts_with((dir / name).string() + ": "));
    CHECK(error.find('\n') == std::string::npos);
  }
  CHECK(dir.entries() == std::vector<std::string>{"text.pickle", "truncated.pickle"});
}

TEST_CASE("convert: a missing parent directory is an output error") {
  TempDir dir;
  write_fixture(dir);
  ConvertOptions options = options_for(dir);
  options.output_dir = (dir / "no" / "such" / "out").string();
  CHECK(convert_error(options) == options.output_dir + ": parent directory does not exist");
}

TEST_CASE("staging directory: removed unless committed, renamed into place when committed") {
  TempDir dir;
  {
    StagingDirectory staging(dir / "out", false);
    CHECK(std::filesystem::is_directory(staging.path()));
    CHECK(staging.path().parent_path() == dir.path());
    test::write_file(staging.path() / "elements.db", "partial");
  }
  CHECK(dir.entries().empty());
  {
    StagingDirectory staging(dir / "out/", false);
    test::write_file(staging.path() / "elements.db", "complete");
    staging.commit();
  }
  CHECK(dir.entries() == std::vector<std::string>{"out"});
  CHECK(test::read_file(dir / "out" / "elements.db") == "complete");
}

TEST_CASE("staging directory: retargeted before commit, only beside its first target") {
  TempDir dir;
  std::filesystem::create_directories(dir / "other");
  StagingDirectory staging(dir / "placeholder", false);
  CHECK_THROWS_WITH_AS(staging.retarget(dir / "other" / "out"),
                       ((dir / "other" / "out").string() + ": not beside the staging directory").c_str(),
                       OutputError);
  CHECK_THROWS_AS(staging.retarget(dir / "other"), OutputError);  // exists and is not a conversion
  staging.retarget(dir / "named");
  test::write_file(staging.path() / "elements.db", "complete");
  staging.commit();
  CHECK(dir.entries() == std::vector<std::string>{"named", "other"});
}

TEST_CASE("convert: final_output_dir names the output once it is written") {
  TempDir dir;
  write_fixture(dir);
  ConvertOptions options = options_for(dir);
  options.output_dir = (dir / "unnamed").string();
  bool asked_after_reading = false;
  bool read = false;
  options.on_progress = [&](const ConvertProgress& step) {
    if (step.stage != ConvertStage::Reading) read = true;
  };
  options.final_output_dir = [&] {
    asked_after_reading = read;
    return dir / "named";
  };
  const ConvertSummary summary = convert_snapshot(options);
  CHECK(asked_after_reading);
  CHECK(summary.output_dir == (dir / "named").string());
  CHECK(dir.entries() == std::vector<std::string>{"named", "s.pickle"});
  CHECK(TempDir::entries_of(dir / "named") ==
        std::vector<std::string>{"allocations.json.zst", "elements.db"});
}

TEST_CASE("convert: progress reports reading, then each later stage") {
  TempDir dir;
  write_fixture(dir);
  ConvertOptions options = options_for(dir);
  std::vector<ConvertStage> stages;
  uint64_t last_read = 0;
  options.on_progress = [&](const ConvertProgress& progress) {
    if (stages.empty() || stages.back() != progress.stage) stages.push_back(progress.stage);
    if (progress.stage == ConvertStage::Reading) last_read = progress.bytes_read;
  };
  convert_snapshot(options);
  CHECK(stages.back() == ConvertStage::Done);
  CHECK(std::find(stages.begin(), stages.end(), ConvertStage::Writing) != stages.end());
  CHECK(last_read <= std::filesystem::file_size(dir / "s.pickle"));
}
