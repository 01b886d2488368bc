// Sizes as typed on command lines (snapscope-gen --size) and in SNAPSCOPE_CACHE_MAX.
#include <doctest/doctest.h>

#include "core/util/byte_size.h"

TEST_CASE("parse_byte_size accepts decimal and binary units") {
  CHECK(snapscope::parse_byte_size("100MB") == 100'000'000u);
  CHECK(snapscope::parse_byte_size("1GB") == 1'000'000'000u);
  CHECK(snapscope::parse_byte_size("2MiB") == 2u * 1024 * 1024);
  CHECK(snapscope::parse_byte_size("4096") == 4096u);
  CHECK(snapscope::parse_byte_size("12kb") == 12'000u);
  CHECK_FALSE(snapscope::parse_byte_size("MB").has_value());
  CHECK_FALSE(snapscope::parse_byte_size("10XB").has_value());
  CHECK_FALSE(snapscope::parse_byte_size("").has_value());
}
