// ReservedArray: an append-only array in reserved address space, with a hard capacity.
#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>

#include "core/util/reserved_array.h"

using namespace snapscope;

TEST_CASE("reserved array: appends up to its capacity, then refuses") {
  ReservedArray<uint64_t> array(3);
  CHECK(array.empty());
  array.push_back(10);
  array.push_back(11);
  array.push_back(12);
  CHECK(array.size() == 3);
  CHECK(array.back() == 12);
  CHECK_THROWS_AS(array.push_back(13), std::length_error);
  array.pop_back();
  array.truncate(1);
  CHECK(array.size() == 1);
  array.truncate(5);  // never grows
  CHECK(array.size() == 1);
  array.data()[1] = 21;
  array.set_size(2);
  CHECK(array[1] == 21);
  uint64_t sum = 0;
  for (uint64_t v : array) sum += v;
  CHECK(sum == 31);
}

TEST_CASE("reserved array: a large reservation costs no memory until written") {
  ReservedArray<uint64_t> array(size_t{1} << 28);  // 2 GiB of address space
  for (uint64_t i = 0; i < 1000; ++i) array.push_back(i);
  CHECK(array[999] == 999);
  ReservedArray<uint64_t> none(0);
  CHECK_THROWS_AS(none.push_back(1), std::length_error);
}
