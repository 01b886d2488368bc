// Opening through the real window. Cold: a fresh pickle's chart is drawn while its elements.db is
// still being written, the panels fill in once it lands, and the cache entry it leaves is whole.
// Both: the chart is laid out once, so its first request is the one drawn.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "gui_harness.h"

using namespace snapscope::gui_test;
namespace fs = std::filesystem;

namespace {

// Big enough that elements.db takes far longer to write than the first frame takes to draw
// (about 265 MB: the database needs about a second after the timelines, the frame tens of ms).
// The window's creation and the first shader compile (llvmpipe, beside the load on 2 cores) come
// first: at 100 MB a faster replay once let the database land before CI's first frame did.
fs::path large_pickle(const fs::path& sandbox) {
  const fs::path pickle = sandbox / "large.pickle";
  const std::string command = shell_quote(SNAPSCOPE_GEN) + " -o " + shell_quote(pickle.string()) +
                              " --events 2400000 --seed 11 > /dev/null";
  if (std::system(command.c_str()) != 0) throw std::runtime_error("snapscope-gen failed");
  return pickle;
}

// The cache's entries and staging directories (not its content-key memo, ".keys").
std::vector<std::string> entries_in(const fs::path& dir) {
  std::vector<std::string> names;
  if (!fs::exists(dir)) return names;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().filename() != ".keys") names.push_back(entry.path().filename().string());
  }
  return names;
}

}  // namespace

TEST_CASE("app: a fresh pickle's chart comes before its database; the inspector fills in after") {
  const fs::path sandbox = make_sandbox("cold-open");
  const fs::path pickle = large_pickle(sandbox);
  const RunResult run = run_app(sandbox, shell_quote(pickle.string()) + " --size 1200x800 --bench");
  INFO(run.out);
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("(cold: converted the pickle)") != std::string::npos);
  CHECK(run.out.find("first chart frame drawn while elements.db was still being written: yes") !=
        std::string::npos);
  CHECK(run.out.find("db_writing_at_first_frame=1") != std::string::npos);
  // The bench clicks a drawn allocation once everything is ready: its details come from the
  // database written after the first frame.
  CHECK(run.out.find("click to inspector: ") != std::string::npos);
  CHECK(run.out.find("(not filled!)") == std::string::npos);
  CHECK(run.out.find("click_ms=-1") == std::string::npos);

  // One whole cache entry, and no staging directory left behind.
  const std::vector<std::string> entries = entries_in(sandbox / "cache" / "snapscope");
  REQUIRE(entries.size() == 1);
  const fs::path entry = sandbox / "cache" / "snapscope" / entries.front();
  CHECK(fs::file_size(entry / "elements.db") > 0);
  CHECK(fs::file_size(entry / "allocations.json.zst") > 0);

  // Opened again it is a warm open of that entry, with no conversion.
  const RunResult warm = run_app(sandbox, shell_quote(pickle.string()) + " --size 1200x800 --bench");
  REQUIRE(warm.exit_code == 0);
  CHECK(warm.out.find("(warm: no conversion)") != std::string::npos);
  CHECK(warm.out.find("db_writing_at_first_frame=0") != std::string::npos);
  CHECK(entries_in(sandbox / "cache" / "snapscope") == entries);
}

TEST_CASE("app: an open lays its chart out once, cold or warm, the annotation lanes' room included") {
  const fs::path sandbox = make_sandbox("open-layout");
  const std::string input = shell_quote(fixture_pickle(sandbox).string());
  // The generator's training steps are annotated: their lanes sit above the chart. Their depth
  // comes with the document (from the snapshot being converted, or from elements.db), so the
  // chart's first request has its final height.
  const RunResult cold = run_app(sandbox, input + " --size 1200x800 --bench");
  INFO(cold.out);
  REQUIRE(cold.exit_code == 0);
  CHECK(cold.out.find("(cold: converted the pickle)") != std::string::npos);
  CHECK(cold.out.find("first_frame_views=1") != std::string::npos);
  const RunResult warm = run_app(sandbox, input + " --size 1200x800 --bench");
  INFO(warm.out);
  REQUIRE(warm.exit_code == 0);
  CHECK(warm.out.find("(warm: no conversion)") != std::string::npos);
  CHECK(warm.out.find("chart views requested until the first chart frame: 1\n") != std::string::npos);
  CHECK(warm.out.find("first_frame_views=1") != std::string::npos);
  const RunResult view = run_script(sandbox, fixture_pickle(sandbox).string(), "print-view\n", "1200x800");
  REQUIRE(view.exit_code == 0);
  const auto lines = json_lines(view.out);
  REQUIRE(lines.size() == 1);
  CHECK_FALSE(lines[0]["phase_labels"].empty());  // the lanes are there
}
