// Human-readable text for the numbers the viewer shows: sizes, addresses, durations.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace snapscope {

// Binary units with up to `decimals` fractional digits, trailing zeros dropped: "1.5 MiB", "512 B".
std::string format_bytes(double bytes, int decimals = 2);
// An integer with thousands separators: "1,572,864".
std::string format_grouped(uint64_t value);
// Exact byte count with thousands separators: "1,572,864 B".
std::string format_bytes_exact(uint64_t bytes);
// "1 allocation", "7,095 allocations" (plural: singular + "s" unless given).
std::string format_count(uint64_t count, std::string_view singular, std::string_view plural = {});
// A change in bytes with its sign: "+1.5 MiB", "-512 B", "0 B".
std::string format_signed_bytes(int64_t delta);
// "0x7f3a00000000".
std::string format_address(uint64_t address);
// A duration in microseconds in the largest fitting unit: "850 us", "12.5 ms", "3.2 s", "2 min 5 s".
std::string format_duration_us(double microseconds);

}  // namespace snapscope
