// populate_in_step backs memory with pages and never changes what is there.
#include <doctest/doctest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "core/util/prefault.h"

using namespace snapscope;

TEST_CASE("prefault: contents unchanged, odd and empty ranges accepted") {
  std::vector<uint32_t> filled(300000);
  std::iota(filled.begin(), filled.end(), 7u);
  std::vector<uint64_t> reserved;
  reserved.reserve(1 << 20);
  reserved.push_back(42);
  const char text[] = "not page aligned";
  const MemoryRange ranges[] = {{filled.data(), filled.size() * sizeof(uint32_t)},
                                {reserved.data(), reserved.capacity() * sizeof(uint64_t)},
                                {text + 1, sizeof text - 1},
                                {nullptr, 0}};
  populate_in_step(ranges, 7);
  for (size_t i = 0; i < filled.size(); ++i) REQUIRE(filled[i] == 7 + i);
  CHECK(reserved.front() == 42);
  reserved.resize(reserved.capacity());  // the populated capacity is ordinary memory
  CHECK(reserved.back() == 0);
}
