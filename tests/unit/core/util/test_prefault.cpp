// populate_in_step and PopulateAhead back memory with pages and never change what is there.
#include <doctest/doctest.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <thread>
#include <vector>

#include "core/util/populate_ahead.h"
#include "core/util/prefault.h"
#include "core/util/reserved_array.h"

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

namespace {

// How many of the pages in [begin, begin + bytes) are resident (mincore), or -1 where unknown.
long resident_pages(const void* begin, size_t bytes) {
  std::vector<unsigned char> resident((bytes + 4095) / 4096);
  if (::mincore(const_cast<void*>(begin), bytes, resident.data()) != 0) return -1;
  return std::count_if(resident.begin(), resident.end(), [](unsigned char page) { return page & 1; });
}

// Waits up to ten seconds for `ahead` to have populated at least `bytes`.
bool populated_at_least(const PopulateAhead& ahead, size_t bytes) {
  for (int i = 0; i < 10000 && ahead.populated_bytes() < bytes; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return ahead.populated_bytes() >= bytes;
}

}  // namespace

TEST_CASE("populate ahead: stays a lead ahead of the writer, backs those pages, changes nothing") {
  constexpr size_t kMiB = size_t{1} << 20, kBytes = 64 * kMiB, kLead = 8 * kMiB;
  auto* memory = static_cast<unsigned char*>(reserved_memory::reserve(kBytes));
  std::memset(memory, 7, 3 * kMiB);  // written before the thread starts
  {
    PopulateAhead ahead({memory, kBytes}, kLead);
    ahead.written(3 * kMiB);
    if (!populated_at_least(ahead, 3 * kMiB + kLead)) {
      MESSAGE("this kernel cannot populate (MADV_POPULATE_WRITE): nothing to check");
      CHECK(ahead.populated_bytes() == 0);
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));  // it must not run further
      CHECK(ahead.populated_bytes() <= 3 * kMiB + kLead + 2 * kMiB);
      const long resident = resident_pages(memory + 3 * kMiB, kLead);
      if (resident >= 0) CHECK(resident == static_cast<long>(kLead / 4096));
      CHECK(resident_pages(memory + 40 * kMiB, 8 * kMiB) == 0);  // far ahead: untouched

      ahead.written(60 * kMiB);
      CHECK(populated_at_least(ahead, kBytes));  // the lead is cut at the range's end
      CHECK(ahead.populated_bytes() == kBytes);
      CHECK(resident_pages(memory + 40 * kMiB, 8 * kMiB) == static_cast<long>(8 * kMiB / 4096));
    }
  }  // the destructor stops a thread that may be waiting for the writer
  CHECK(std::all_of(memory, memory + 3 * kMiB, [](unsigned char byte) { return byte == 7; }));
  CHECK(std::all_of(memory + 3 * kMiB, memory + kBytes, [](unsigned char byte) { return byte == 0; }));
  reserved_memory::release(memory, kBytes);
}

TEST_CASE("populate ahead: an empty range, and stopping before any write") {
  { PopulateAhead empty({nullptr, 0}, 4096); }
  std::vector<uint64_t> small(1000);
  { PopulateAhead stopped({small.data(), small.size() * sizeof(uint64_t)}, size_t{1} << 20); }
  CHECK(std::all_of(small.begin(), small.end(), [](uint64_t value) { return value == 0; }));
}
