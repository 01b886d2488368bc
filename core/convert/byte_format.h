// Human-readable byte counts ("51.0 GiB") for summaries and progress lines.
#pragma once

#include <cstdint>
#include <string>

namespace snapscope {

std::string human_bytes(uint64_t bytes);          // binary units: B, KiB, MiB, GiB, TiB
std::string format_duration_us(int64_t span_us);  // "12.345 s", "1.2 ms", "3 min 4.5 s"

}  // namespace snapscope
