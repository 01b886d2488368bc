// timelines.img: a random replay written and mapped back answers every query as the replay did;
// an image of another layout file is ignored; a damaged one is refused with its name, or (where
// the damage stays inside what the checks can tell) still reads only inside its arrays (ASan's
// job in CI).
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "core/snapshot/snapshot_reader.h"
#include "core/store/timeline_image/timeline_image.h"
#include "unit/support/replay_actions.h"
#include "unit/support/replay_checks.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;
namespace fs = std::filesystem;

namespace {

// Allocations and frees of random live elements (some huge, so sizes go past 4 GiB and totals
// swing by more than 2 GiB inside a run), some with times.
ReplayInput random_input(std::mt19937_64& rng, size_t action_count, TimelineKind kind) {
  ReplayInput input;
  input.device = 3;
  input.kind = kind;
  const auto new_element = [&] {
    ReplayElement element;
    element.size = rng() % 16 == 0 ? (uint64_t{5} << 32) + rng() % 1000 : rng() % 5000;
    element.stack = static_cast<StackId>(rng() % 7);
    input.elements.push_back(element);
    return static_cast<uint32_t>(input.elements.size() - 1);
  };
  std::vector<uint32_t> live;
  for (int i = 0; i < 10; ++i) {
    live.push_back(new_element());
    input.initial_stack.push_back(live.back());
  }
  for (size_t i = 0; i < action_count; ++i) {
    if (!live.empty() && rng() % 100 < 48) {
      const size_t pick = rng() % live.size();
      testing::push_action(input, live[pick], static_cast<EventIndex>(i));
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(pick));
    } else {
      live.push_back(new_element());
      testing::push_action(input, live.back(), static_cast<EventIndex>(i));
    }
    input.action_time_us.push_back(1'000'000 + static_cast<int64_t>(i) * (rng() % 2 ? 7 : 40'000'000'000));
  }
  input.element_blocks.push_back({1, 4});
  return input;
}

// One device's replay, and the layout file its image stands for.
struct Fixture {
  test::TempDir dir;
  fs::path layout = dir / "allocations.json.zst";
  fs::path image = dir / kTimelineImageName;
  std::mt19937_64 rng{20261130};
  // A small checkpoint budget: many checkpoints.
  Timeline blocks{random_input(rng, 4000, TimelineKind::Blocks), 4096};
  Timeline segments{random_input(rng, 300, TimelineKind::Segments)};
  ReservedSeries reserved{1 << 20, std::vector<ReservedStep>{{2, 3 << 20}, {9, 2 << 20}}};

  Fixture() {
    test::write_file(layout, "layout");
    reserved.mark_inconsistent();
    write_timeline_image(image, layout, {{3, &blocks, &segments, &reserved}});
  }
};

void check_same_answers(const Timeline& replayed, const Timeline& mapped) {
  test::check_same_replay(replayed.input(), mapped.input());
  REQUIRE(mapped.action_count() == replayed.action_count());
  CHECK(mapped.timesteps() == replayed.timesteps());
  CHECK(mapped.max_size() == replayed.max_size());
  CHECK(mapped.peak_bytes() == replayed.peak_bytes());
  CHECK(mapped.peak_action() == replayed.peak_action());
  CHECK(mapped.checkpoint_interval() == replayed.checkpoint_interval());
  // Nothing was copied out of the mapping: only the step counts are rebuilt on the heap.
  CHECK(mapped.memory_bytes() * 20 < replayed.memory_bytes());
  for (size_t state = 0; state <= replayed.action_count(); ++state) {
    REQUIRE(mapped.total_at_state(state) == replayed.total_at_state(state));
    if (state % 37 == 0) {
      const auto a = replayed.live_at(state), b = mapped.live_at(state);
      REQUIRE(a.size() == b.size());
      for (size_t i = 0; i < a.size(); ++i) REQUIRE((a[i].elem == b[i].elem && a[i].offset == b[i].offset));
    }
  }
  for (size_t action = 0; action < replayed.action_count(); ++action) {
    REQUIRE(mapped.step_end(action) == replayed.step_end(action));
    REQUIRE(mapped.action_is_free(action) == replayed.action_is_free(action));
  }
  for (uint32_t elem = 0; elem < replayed.element_count(); elem += 11)
    REQUIRE(mapped.polygon(elem) == replayed.polygon(elem));
}

// Every query a damaged image that passed its checks may get: they must stay in its arrays.
void exercise(const Timeline& timeline) {
  size_t flagged = 0;
  for (uint32_t elem = 0; elem < timeline.element_count(); ++elem) {
    flagged += timeline.element(elem).merged_free;  // UBSan: a bool that is neither 0 nor 1
    flagged += origin_name(timeline.element(elem).origin)[0] == 'u';
  }
  CHECK(flagged <= timeline.element_count());
  for (size_t state = 0; state <= timeline.action_count(); state += 97) (void)timeline.live_at(state);
  for (uint64_t step = 0; step < timeline.timesteps(); step += 101) (void)timeline.memory_at_step(step);
  for (uint32_t elem = 0; elem < timeline.element_count(); elem += 53) (void)timeline.polygon(elem);
}

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("timeline image: mapped back, both timelines and the reserved series answer as replayed") {
  const Fixture fixture;
  auto devices = read_timeline_image(fixture.image, fixture.layout);
  REQUIRE(devices.has_value());
  REQUIRE(devices->size() == 1);
  const LoadedDevice& device = devices->front();
  CHECK(device.device == 3);
  check_same_answers(fixture.blocks, device.blocks);
  check_same_answers(fixture.segments, device.segments);
  CHECK(device.blocks.input().elements.is_view());  // mapped, not copied
  CHECK(device.blocks.input().actions.is_view());
  CHECK(device.reserved.steps() == fixture.reserved.steps());
  CHECK(device.reserved.peak() == fixture.reserved.peak());
  CHECK(device.reserved.inconsistent());
  CHECK(device.reserved.max_between(0, 20) == 3 << 20);
}

TEST_CASE("timeline image: none, or made from another layout file, is not read") {
  Fixture fixture;
  CHECK_FALSE(read_timeline_image(fixture.dir / "missing.img", fixture.layout).has_value());
  // The layout file rewritten (another size and time), or only touched: the image is stale.
  test::write_file(fixture.layout, "layout, converted again");
  CHECK_FALSE(read_timeline_image(fixture.image, fixture.layout).has_value());
  write_timeline_image(fixture.image, fixture.layout,
                       {{3, &fixture.blocks, &fixture.segments, &fixture.reserved}});
  REQUIRE(read_timeline_image(fixture.image, fixture.layout).has_value());
  fs::last_write_time(fixture.layout, fs::last_write_time(fixture.layout) + std::chrono::seconds(5));
  CHECK_FALSE(read_timeline_image(fixture.image, fixture.layout).has_value());
}

TEST_CASE("timeline image: a cut, padded or foreign file is refused with its name") {
  const Fixture fixture;
  const std::string bytes = read_bytes(fixture.image);
  const auto refusal = [&](const std::string& damaged) -> std::string {
    test::write_file(fixture.image, damaged);
    try {
      (void)read_timeline_image(fixture.image, fixture.layout);
    } catch (const InputError& error) {
      return error.what();
    }
    return "read";
  };
  const std::string name = fixture.image.string() + ": ";
  CHECK(refusal(bytes.substr(0, bytes.size() - 8)) == name + "cut short or padded");
  CHECK(refusal(bytes + "x") == name + "cut short or padded");
  CHECK(refusal(bytes.substr(0, 30)) == name + "cut short");
  CHECK(refusal("GIF89a" + bytes.substr(6)) == name + "not a timeline image");
}

TEST_CASE("timeline image: damaged anywhere, it is refused or reads only inside its arrays") {
  const Fixture fixture;
  const std::string bytes = read_bytes(fixture.image);
  std::mt19937_64 rng(7);
  size_t refused = 0, read = 0;
  // Every 8-byte slot of the first 4 KB (the figures and column heads), then random bytes
  // further in, each set to values an attacker would pick.
  std::vector<size_t> offsets;
  for (size_t offset = 64; offset < std::min<size_t>(bytes.size(), 4096); offset += 8)
    offsets.push_back(offset);
  for (int i = 0; i < 300; ++i) offsets.push_back(64 + rng() % (bytes.size() - 64));
  for (const size_t offset : offsets) {
    for (const uint64_t value : {uint64_t{0}, ~uint64_t{0}, uint64_t{0x7fffffff}, uint64_t{1} << 40}) {
      std::string damaged = bytes;
      std::memcpy(damaged.data() + offset, &value, std::min<size_t>(sizeof value, damaged.size() - offset));
      test::write_file(fixture.image, damaged);
      try {
        const auto devices = read_timeline_image(fixture.image, fixture.layout);
        REQUIRE(devices.has_value());
        for (const LoadedDevice& device : *devices) {
          exercise(device.blocks);
          exercise(device.segments);
          (void)device.reserved.max_between(-1, 1 << 20);
        }
        ++read;
      } catch (const InputError& error) {
        REQUIRE(std::string(error.what()).starts_with(fixture.image.string() + ": "));
        ++refused;
      }
    }
  }
  CHECK(refused > 0);
  CHECK(read > 0);  // sizes and times, which no check can tell from true ones
}
