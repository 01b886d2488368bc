#include <doctest/doctest.h>

#include "core/util/format.h"
#include "core/view/axis_ticks.h"

using namespace snapscope;

TEST_CASE("format_bytes uses binary units and trims zeros") {
  CHECK(format_bytes(0) == "0 B");
  CHECK(format_bytes(512) == "512 B");
  CHECK(format_bytes(1024) == "1 KiB");
  CHECK(format_bytes(1536) == "1.5 KiB");
  CHECK(format_bytes(3.0 * 1024 * 1024 * 1024) == "3 GiB");
  CHECK(format_bytes(1024.0 * 1024 - 1) == "1 MiB");  // rounding carries into the next unit
  CHECK(format_bytes(-2048) == "-2 KiB");
  CHECK(format_bytes(1234567, 1) == "1.2 MiB");
  // Four digits before the point read as the next unit; bytes stay bytes up to 1023.
  CHECK(format_bytes(1015.54 * 1024 * 1024) == "0.99 GiB");
  CHECK(format_bytes(999.0 * 1024) == "999 KiB");
  CHECK(format_bytes(1000.0 * 1024) == "0.98 MiB");
  CHECK(format_bytes(1000) == "1000 B");
  CHECK(format_bytes(999.999 * 1024 * 1024) == "0.98 GiB");  // "1000 MiB" after rounding moves up
}

TEST_CASE("format_bytes_exact groups thousands") {
  CHECK(format_bytes_exact(0) == "0 B");
  CHECK(format_bytes_exact(999) == "999 B");
  CHECK(format_bytes_exact(1000) == "1,000 B");
  CHECK(format_bytes_exact(1572864) == "1,572,864 B");
}

TEST_CASE("format_address and format_duration_us") {
  CHECK(format_address(0x7f3a00000000ull) == "0x7f3a00000000");
  CHECK(format_address(0) == "0x0");
  CHECK(format_duration_us(850) == "850 us");
  CHECK(format_duration_us(12500) == "12.5 ms");
  CHECK(format_duration_us(3.25e6) == "3.25 s");
  CHECK(format_duration_us(125e6) == "2 min 5 s");
}

TEST_CASE("decimal ticks use 1-2-5 steps and stay inside the range") {
  CHECK(nice_decimal_step(0, 100, 10) == doctest::Approx(10));
  CHECK(nice_decimal_step(0, 120, 10) == doctest::Approx(20));
  CHECK(nice_decimal_step(0, 3000, 10) == doctest::Approx(500));
  const auto ticks = index_ticks(3, 47, 5);
  REQUIRE(ticks.size() == 4);
  CHECK(ticks.front().value == 10);
  CHECK(ticks.back().value == 40);
  CHECK(index_ticks(0, 20000, 2)[1].label == "10,000");
  // Never below one event.
  CHECK(index_ticks(0, 2, 10).size() == 3);
}

TEST_CASE("byte ticks are powers of two with unit labels") {
  const double gib = 1024.0 * 1024 * 1024;
  CHECK(binary_step(0, 8 * gib, 8) == doctest::Approx(gib));
  CHECK(binary_step(0, 9 * gib, 8) == doctest::Approx(2 * gib));
  const auto ticks = byte_ticks(0, 4 * gib, 4);
  REQUIRE(ticks.size() == 5);
  CHECK(ticks[1].label == "1 GiB");
  CHECK(ticks[4].label == "4 GiB");
  CHECK(byte_ticks(0, 3000, 3)[1].label == "1 KiB");
  CHECK(tick_values(5, 1, 1).empty());
}

TEST_CASE("format_count says one thing, several things") {
  CHECK(format_count(1, "allocation") == "1 allocation");
  CHECK(format_count(0, "allocation") == "0 allocations");
  CHECK(format_count(7095, "allocation") == "7,095 allocations");
  CHECK(format_count(2, "child", "children") == "2 children");
}
