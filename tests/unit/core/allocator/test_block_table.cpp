// BlockTable against std::map on the same operations: long random runs over a few addresses
// (every probe run wraps and shifts back), adversarially close addresses, and address 0 and
// the largest address, which an untrusted file may hold.
#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <vector>

#include "core/allocator/block_table.h"

using namespace snapscope;

namespace {

std::vector<AllocatorBlock> values_of(const std::map<uint64_t, AllocatorBlock>& model) {
  std::vector<AllocatorBlock> blocks;
  for (const auto& entry : model) blocks.push_back(entry.second);
  return blocks;
}

AllocatorBlock block_at(uint64_t addr, uint64_t size) { return {addr, size, size - 1, 7, (size & 1) != 0}; }

// `steps` random inserts, replacements and erases of addresses drawn from `addresses`.
void check_against_map(const std::vector<uint64_t>& addresses, int steps, uint64_t seed) {
  std::mt19937_64 rng(seed);
  BlockTable table;
  std::map<uint64_t, AllocatorBlock> model;
  for (int step = 0; step < steps; ++step) {
    const uint64_t addr = addresses[rng() % addresses.size()];
    if (rng() % 3 == 0) {
      const auto removed = table.erase(addr);
      const auto found = model.find(addr);
      REQUIRE(removed.has_value() == (found != model.end()));
      if (removed) CHECK(*removed == found->second);
      if (found != model.end()) model.erase(found);
    } else {
      const AllocatorBlock block = block_at(addr, rng() % 4096 + 1);
      const auto replaced = table.insert_or_assign(block);
      const auto found = model.find(addr);
      REQUIRE(replaced.has_value() == (found != model.end()));
      if (replaced) CHECK(*replaced == found->second);
      model[addr] = block;
    }
    REQUIRE(table.size() == model.size());
  }
  CHECK(table.sorted() == values_of(model));
  for (const uint64_t addr : addresses) {
    const AllocatorBlock* found = table.find(addr);
    REQUIRE((found != nullptr) == (model.count(addr) != 0));
    if (found) CHECK(*found == model.at(addr));
  }
}

}  // namespace

TEST_CASE("block table: random inserts, replacements and erases agree with std::map") {
  std::vector<uint64_t> few;
  for (uint64_t i = 0; i < 40; ++i) few.push_back(0x7f0000000000 + i * 512);
  check_against_map(few, 20000, 1);
  std::vector<uint64_t> many;
  std::mt19937_64 rng(5);
  for (int i = 0; i < 3000; ++i) many.push_back(rng());
  check_against_map(many, 60000, 2);
}

TEST_CASE("block table: address 0, the largest address and neighbours are ordinary keys") {
  const std::vector<uint64_t> edges = {0, 1, UINT64_MAX, UINT64_MAX - 1, uint64_t{1} << 63, 512, 1024};
  check_against_map(edges, 5000, 3);
  BlockTable table;
  table.insert_or_assign(block_at(0, 10));
  table.insert_or_assign(block_at(UINT64_MAX, 20));
  CHECK(table.size() == 2);
  CHECK(table.at(0).size == 10);
  CHECK(table.at(UINT64_MAX).size == 20);
  CHECK(table.count(5) == 0);
  CHECK_THROWS_AS((void)table.at(5), std::out_of_range);
  CHECK(table.sorted().front().addr == 0);
  CHECK(table.sorted().back().addr == UINT64_MAX);
}

TEST_CASE("block table: growing, emptying and equality ignore the order blocks came in") {
  BlockTable forward, backward;
  for (uint64_t i = 0; i < 1000; ++i) forward.insert_or_assign(block_at(i * 4096, i + 1));
  for (uint64_t i = 1000; i-- > 0;) backward.insert_or_assign(block_at(i * 4096, i + 1));
  CHECK(forward == backward);
  CHECK(forward.unordered().size() == 1000);
  backward.insert_or_assign(block_at(0, 99));
  CHECK_FALSE(forward == backward);
  for (uint64_t i = 0; i < 1000; ++i) CHECK(forward.erase(i * 4096).has_value());
  CHECK(forward.empty());
  CHECK(forward.find(0) == nullptr);
  CHECK_FALSE(forward.erase(0).has_value());
  forward.reserve(5000);
  forward.insert_or_assign(block_at(8, 1));
  CHECK(forward.size() == 1);
}
