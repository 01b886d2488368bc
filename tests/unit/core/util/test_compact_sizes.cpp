#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "core/util/compact_sizes.h"

using namespace snapscope;

TEST_CASE("compact sizes: sizes of 4 GiB and more come back whole among small ones") {
  const std::vector<uint64_t> sizes = {0, 512,        0xfffffffe, 0xffffffff, uint64_t{1} << 32,
                                       7, 3ull << 40, 0xffffffff, UINT64_MAX, 1};
  CompactSizes compact;
  compact.reserve(sizes.size());
  for (const uint64_t size : sizes) compact.push_back(size);
  REQUIRE(compact.size() == sizes.size());
  for (size_t i = 0; i < sizes.size(); ++i) {
    CAPTURE(i);
    CHECK(compact[i] == sizes[i]);
  }
}

TEST_CASE("compact sizes: a million random sizes round-trip in about 4 bytes each") {
  std::mt19937_64 random(3);
  std::vector<uint64_t> sizes;
  CompactSizes compact;
  compact.reserve(1'000'000);
  for (int i = 0; i < 1'000'000; ++i) {
    const uint64_t size = random() % 1000 == 0 ? random() : random() % (uint64_t{1} << 31);
    sizes.push_back(size);
    compact.push_back(size);
  }
  bool all_equal = true;
  for (size_t i = 0; i < sizes.size(); ++i) all_equal = all_equal && compact[i] == sizes[i];
  CHECK(all_equal);
  CHECK(compact.memory_bytes() < 4'000'000 + 1'000 * 2 * 16);  // about 1,000 large ones
}
