#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "core/timeline/action_times.h"
#include "core/util/packed_int64s.h"

using namespace snapscope;

namespace {

constexpr int64_t kMinutes36 = int64_t{36} * 60 * 1'000'000;  // past 2^31 µs

void check_holds(const std::vector<int64_t>& expected) {
  ActionTimes times;
  times.reserve(expected.size());
  for (const int64_t time : expected) times.push_back(time);
  REQUIRE(times.size() == expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    CAPTURE(i);
    CHECK(times[i] == expected[i]);
  }
  CHECK(std::equal(times.begin(), times.end(), expected.begin(), expected.end()));
}

}  // namespace

TEST_CASE("action times: kept exactly, whatever their order and span") {
  const int64_t start = 1'700'000'000'000'000;
  SUBCASE("increasing, a few µs apart, across runs of 256") {
    std::vector<int64_t> times;
    for (int64_t i = 0; i < 10'000; ++i) times.push_back(start + 3 * i);
    check_holds(times);
  }
  SUBCASE("absent times, backwards times, jumps of more than 2^31 either way") {
    check_holds({kNoTime, start, start - 5, kNoTime, start + kMinutes36, start + 1, start - kMinutes36});
  }
  SUBCASE("the extremes of int64") {
    check_holds({std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min() + 1, 0, -1,
                 std::numeric_limits<int64_t>::max()});
  }
  SUBCASE("random") {
    std::mt19937_64 random(11);
    std::vector<int64_t> times;
    for (int i = 0; i < 20'000; ++i) {
      const uint64_t pick = random() % 8;
      times.push_back(pick == 0   ? kNoTime
                      : pick == 1 ? static_cast<int64_t>(random())
                                  : start + static_cast<int64_t>(i));
    }
    check_holds(times);
  }
}

TEST_CASE("action times: set() replaces one time, to or from one kept whole") {
  ActionTimes times{100, 200, 300};
  times.set(1, 100 + kMinutes36);  // no longer fits an offset
  times.set(2, kNoTime);
  CHECK(times == ActionTimes{100, 100 + kMinutes36, kNoTime});
  times.set(1, 150);  // fits again
  times.set(0, 50);   // below the run's base, within reach of an offset
  CHECK(times == ActionTimes{50, 150, kNoTime});
  times.set(0, 100 - kMinutes36);  // too far below: kept whole
  CHECK(times == ActionTimes{100 - kMinutes36, 150, kNoTime});
  times.assign(2, 7);
  CHECK(times == ActionTimes{7, 7});
  times.clear();
  CHECK(times.empty());
}

TEST_CASE("action times: 4 bytes per action when they fit, and they bisect") {
  ActionTimes times;
  times.reserve(100'000);
  for (int64_t i = 0; i < 100'000; ++i) times.push_back(1'000'000 + 10 * i);
  CHECK(times.memory_bytes() < 100'000 * 4 + (100'000 / 256 + 1) * 12 + 64);  // + a base and an index per run
  CHECK(times.front() == 1'000'000);
  CHECK(times.back() == 1'000'000 + 10 * 99'999);
  CHECK(std::lower_bound(times.begin(), times.end(), 1'000'000 + 10 * 1234 + 1) - times.begin() == 1235);
}

TEST_CASE("packed int64s: memory totals that rise and fall by more than an offset reaches") {
  // A running total of allocation sizes, as Timeline keeps one per action: small steps, with
  // an occasional 3 GiB allocation and its free, and values near both ends of int64.
  const int64_t gib = int64_t{1} << 30;
  std::vector<int64_t> totals;
  int64_t total = 0;
  std::mt19937_64 random(5);
  for (int i = 0; i < 50'000; ++i) {
    const int64_t size = static_cast<int64_t>(random() % 4096) * 512;
    if (i % 7000 == 10) {
      total += 3 * gib;
    } else if (i % 7000 == 3000) {
      total -= 3 * gib;
    } else {
      total += (random() & 1) && total >= size ? -size : size;
    }
    totals.push_back(total);
  }
  totals.push_back(std::numeric_limits<int64_t>::max());
  totals.push_back(std::numeric_limits<int64_t>::min() + 5);
  PackedInt64s packed;
  packed.reserve(totals.size());
  for (const int64_t value : totals) packed.push_back(value);
  CHECK(std::equal(packed.begin(), packed.end(), totals.begin(), totals.end()));
  // Each 3 GiB step costs the rest of its run of 256 whole: still well under 8 bytes a value.
  CHECK(packed.memory_bytes() < totals.size() * 6);
}

TEST_CASE("packed int64s: set() in one run keeps the whole values of every later run") {
  // Whole values in runs 0, 2 and 5; then set() adds one in run 1, removes one in run 2 and adds
  // one in run 5, each moving where every later run's whole values sit.
  const int64_t far = int64_t{1} << 40;
  std::vector<int64_t> expected(6 * 256 + 7);
  for (size_t i = 0; i < expected.size(); ++i) expected[i] = static_cast<int64_t>(i);
  for (size_t i : {3u, 600u, 601u, 1300u, 1500u}) expected[i] = far + static_cast<int64_t>(i);
  PackedInt64s values;
  for (int64_t value : expected) values.push_back(value);
  CHECK(std::equal(values.begin(), values.end(), expected.begin(), expected.end()));

  expected[300] = -far;  // run 1 gains its first whole value
  values.set(300, expected[300]);
  expected[600] = 7;  // run 2 loses one
  values.set(600, expected[600]);
  expected[1301] = 3 * far;  // run 5 gains one after its first
  values.set(1301, expected[1301]);
  CHECK(std::equal(values.begin(), values.end(), expected.begin(), expected.end()));
  values.clear();
  values.push_back(far);
  CHECK(values[0] == far);
}
