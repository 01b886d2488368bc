// AddressMap against std::unordered_map on random insert/assign/erase sequences: keys that
// share their low and high bits (like device addresses), keys that collide in the table, and
// the key that marks an empty slot.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <unordered_map>
#include <vector>

#include "core/util/address_map.h"

using namespace snapscope;

namespace {

void check_same(const AddressMap& map, const std::unordered_map<uint64_t, uint32_t>& oracle,
                const std::vector<uint64_t>& keys) {
  REQUIRE(map.size() == oracle.size());
  for (const uint64_t key : keys) {
    const auto it = oracle.find(key);
    const uint32_t* found = map.find(key);
    REQUIRE((found != nullptr) == (it != oracle.end()));
    if (found) REQUIRE(*found == it->second);
  }
}

}  // namespace

TEST_CASE("address map: agrees with std::unordered_map through growth and backward-shift erases") {
  for (const uint64_t seed : {1u, 2u, 3u}) {
    std::mt19937_64 random(seed);
    // Few distinct keys, so inserts, overwrites and erases of present keys are all frequent.
    std::vector<uint64_t> keys = {0, ~uint64_t{0}, ~uint64_t{0} - 1};
    for (int i = 0; i < 3000; ++i) keys.push_back(0x7f0000000000ULL + 512 * (random() % 100000));
    AddressMap map;
    std::unordered_map<uint64_t, uint32_t> oracle;
    for (int step = 0; step < 200000; ++step) {
      const uint64_t key = keys[random() % keys.size()];
      const auto value = static_cast<uint32_t>(random());
      if (random() % 3 == 0) {
        const auto it = oracle.find(key);
        const std::optional<uint32_t> erased = map.erase(key);
        REQUIRE(erased.has_value() == (it != oracle.end()));
        if (erased) {
          REQUIRE(*erased == it->second);
          oracle.erase(it);
        }
      } else {
        map.insert_or_assign(key, value);
        oracle[key] = value;
      }
      if (step % 20000 == 0) check_same(map, oracle, keys);
    }
    check_same(map, oracle, keys);
    for (const uint64_t key : keys) map.erase(key);
    CHECK(map.size() == 0);
    CHECK_FALSE(map.contains(keys[5]));
  }
}

TEST_CASE("address map: a long probe run, emptied from its middle, still finds every key") {
  AddressMap map;
  // Multiples of 2^40 differ only in bits the hash mixes late: many land in one run.
  std::vector<uint64_t> keys;
  for (uint64_t i = 1; i <= 20; ++i) keys.push_back(i << 40);
  for (uint32_t i = 0; i < keys.size(); ++i) map.insert_or_assign(keys[i], i);
  for (size_t i = 0; i < keys.size(); i += 2) CHECK(map.erase(keys[i]) == static_cast<uint32_t>(i));
  for (size_t i = 1; i < keys.size(); i += 2) {
    REQUIRE(map.find(keys[i]) != nullptr);
    CHECK(*map.find(keys[i]) == i);
  }
  CHECK(map.size() == 10);
}
