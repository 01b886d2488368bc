// Sizes as users type them on command lines and in the environment.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace snapscope {

// "100MB", "1GB", "512KiB", "4096" -> bytes (decimal and binary units, any case). nullopt when
// malformed or past 2^64.
std::optional<uint64_t> parse_byte_size(std::string_view text);

}  // namespace snapscope
