// Pinned host memory (host_segments / host_traces) through the real app: the host device opens
// by name, its chart and cursor readout are the host timeline's, not the GPU's.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "core/document/document.h"
#include "core/snapshot/model.h"
#include "gui_harness.h"

using namespace snapscope;
using namespace snapscope::gui_test;
namespace fs = std::filesystem;

TEST_CASE("script: 'device host' shows pinned host memory, at the host timeline's peak") {
  const fs::path sandbox = make_sandbox("host-memory");
  const fs::path pickle = sandbox / "host.pickle";
  const std::string generate = shell_quote(SNAPSCOPE_GEN) + " -o " + shell_quote(pickle.string()) +
                               " --events 3000 --seed 3 --host-batches 60 > /dev/null";
  REQUIRE(std::system(generate.c_str()) == 0);

  const fs::path png = sandbox / "host.png";
  const RunResult run = run_script(
      sandbox, pickle.string(), "device host\ncursor peak\nprint-cursor\nscreenshot " + png.string() + "\n");
  REQUIRE(run.exit_code == 0);
  const auto lines = json_lines(run.out);
  REQUIRE(lines.size() == 1);

  const auto document = open_converted(sandbox, pickle.string());
  const DeviceDocument* host = document->find_device(kHostDevice);
  const DeviceDocument* gpu = document->find_device(0);
  REQUIRE(host != nullptr);
  REQUIRE(gpu != nullptr);
  CHECK(lines[0]["peak_bytes"] == host->blocks.peak_bytes());
  CHECK(lines[0]["allocated"] == host->blocks.peak_bytes());
  CHECK(lines[0]["action_count"] == host->blocks.action_count());
  CHECK(host->blocks.peak_bytes() != gpu->blocks.peak_bytes());

  // The chart is drawn: some pixel in the middle band of the window is a palette color.
  const Image image = load_png(png);
  int filled = 0;
  for (int x = 100; x < image.width - 500; x += 7) {
    const uint32_t rgb = image.pixel(x, image.height / 3);
    if (std::max({rgb >> 16, (rgb >> 8) & 0xff, rgb & 0xff}) > 60) ++filled;
  }
  CHECK(filled > 10);
}
