// torch.compile stacks: the generated module (Inductor's cache file, an FX graph, <string>) is
// never the location; the user line that called it is, marked compiled, with the generated frame
// kept for a tooltip.
#include <doctest/doctest.h>

#include "core/analysis/frame_kind.h"
#include "core/analysis/live_elements.h"
#include "core/analysis/moment_table.h"
#include "core/view/stack_format.h"
#include "unit/support/test_analysis_fixtures.h"

using namespace snapscope;
using namespace snapscope::testing;

namespace {

const char* const kLinuxInductor = "/tmp/torchinductor_alice/ab/cabc123.py";
const char* const kWindowsInductor = "C:\\Users\\bob\\AppData\\Local\\Temp\\torchinductor_bob\\xy\\cxy.py";

// Frames: 0 allocator (hidden), 1 generated `call` (set per test), 2 torch's Inductor runtime,
// 3 the user's forward, 4 the user's train loop. Stack 1: all of them, innermost first; stack 2:
// the same line run eagerly.
FakeStackSource compiled_stacks(const char* generated_file) {
  FakeStackSource source;
  source.frames = {{"c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc()",
                    "CUDACachingAllocator.cpp", 0},
                   {"call", generated_file, 1690},
                   {"run", "/venv/lib/python3.10/site-packages/torch/_inductor/utils.py", 3220},
                   {"forward", "/home/me/transformer.py", 22},
                   {"train", "/home/me/train.py", 51}};
  source.stacks.push_back({0, 1, 2, 3, 4});
  source.stacks.push_back({0, 3, 4});
  return source;
}

}  // namespace

TEST_CASE("compiled code: Inductor modules, FX graphs and <...> pseudo-files are generated frames") {
  CHECK(classify_frame("call", kLinuxInductor) == FrameKind::Generated);
  CHECK(classify_frame("call", kWindowsInductor) == FrameKind::Generated);
  CHECK(classify_frame("forward", "<eval_with_key>.3") == FrameKind::Generated);
  CHECK(classify_frame("forward", "<eval_with_key>") == FrameKind::Generated);
  CHECK(classify_frame("<module>", "<string>") == FrameKind::Generated);
  CHECK(classify_frame("f", "<torch_dynamo_resume_in_forward_at_12>") == FrameKind::Generated);
  // Not generated: the interpreter's import machinery, a notebook cell, a user file that only
  // mentions Inductor in its own name.
  CHECK(classify_frame("_call_with_frames_removed", "<frozen importlib._bootstrap>") == FrameKind::Internal);
  CHECK(classify_frame("f", "<ipython-input-3-abc>") == FrameKind::User);
  CHECK(classify_frame("f", "/home/me/torchinductor_notes.py") == FrameKind::User);
  CHECK(classify_frame("f", "/home/me/my_torchinductor_x/model.py") == FrameKind::User);
}

TEST_CASE("compiled code: the location is the user line that called the generated module") {
  for (const char* file : {kLinuxInductor, kWindowsInductor, "<eval_with_key>.3"}) {
    CAPTURE(file);
    const FakeStackSource source = compiled_stacks(file);
    LocationIndex locations(source, LocationRule::FirstUserFrame);
    const LocationId compiled = locations.location_of(1);
    CHECK(locations.label(compiled) == "/home/me/transformer.py:22 (forward) [compiled]");
    CHECK(locations.compiled(compiled));
    CHECK(locations.compiled_frame(compiled) == std::string(file) + ":1690 (call)");
    // The same line run eagerly is its own, unmarked row.
    const LocationId eager = locations.location_of(2);
    CHECK(eager != compiled);
    CHECK(locations.label(eager) == "/home/me/transformer.py:22 (forward)");
    CHECK_FALSE(locations.compiled(eager));
    CHECK(locations.compiled_frame(eager).empty());
  }
}

TEST_CASE("compiled code: moment rows carry the compiled mark and the generated frame") {
  const FakeStackSource source = compiled_stacks(kLinuxInductor);
  LocationIndex locations(source, LocationRule::FirstUserFrame);
  const std::vector<LiveElement> live = {{0, 300, 1}, {1, 200, 1}, {2, 100, 2}};
  const MomentTable table = build_moment_table(live, locations, 0);
  REQUIRE(table.rows.size() == 2);
  CHECK(table.rows[0].label == "/home/me/transformer.py:22 (forward) [compiled]");
  CHECK(table.rows[0].bytes == 500);
  CHECK(table.rows[0].compiled);
  CHECK(table.rows[0].compiled_frame == "/tmp/torchinductor_alice/ab/cabc123.py:1690 (call)");
  CHECK_FALSE(table.rows[1].compiled);
  CHECK(table.rows[1].compiled_frame.empty());
  // memory_viz's literal rule keeps the generated frame: it is what that tool shows.
  LocationIndex shown(source, LocationRule::FirstShownFrame);
  CHECK(shown.label(shown.location_of(1)) == "/tmp/torchinductor_alice/ab/cabc123.py:1690 (call)");
}

TEST_CASE("compiled code: a stack of generated code alone still gets a location") {
  FakeStackSource source;
  source.frames = {{"call", kLinuxInductor, 7}, {"<module>", "<string>", 1}};
  source.stacks.push_back({0, 1});
  LocationIndex locations(source, LocationRule::FirstUserFrame);
  CHECK(locations.label(locations.location_of(1)) == "/tmp/torchinductor_alice/ab/cabc123.py:7 (call)");
  CHECK_FALSE(locations.compiled(locations.location_of(1)));
}

TEST_CASE("compiled code: the viewer's stack label agrees with the moment table") {
  const std::vector<FrameText> frames = {
      {"call", kWindowsInductor, 1690, "", "", "", ""},
      {"run", "C:\\venv\\Lib\\site-packages\\torch\\_inductor\\utils.py", 3220, "", "", "", ""},
      {"forward", "C:\\me\\transformer.py", 22, "", "", "", ""}};
  CHECK(first_user_frame(frames) == 2);
  CHECK(first_user_label(frames) == "C:\\me\\transformer.py:22 (forward) [compiled]");
  CHECK(stack_location(frames, {}) == "C:\\me\\transformer.py:22 (forward) [compiled]");
}
