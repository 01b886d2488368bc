#include "core/util/byte_size.h"

#include <cctype>
#include <charconv>
#include <string>

namespace snapscope {

std::optional<uint64_t> parse_byte_size(std::string_view text) {
  uint64_t number = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (error != std::errc() || end == text.data()) return std::nullopt;
  std::string unit;
  for (const char* p = end; p != text.data() + text.size(); ++p)
    unit.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(*p))));
  struct Unit {
    const char* name;
    uint64_t factor;
  };
  static constexpr Unit kUnits[] = {{"", 1},
                                    {"B", 1},
                                    {"KB", 1000},
                                    {"MB", 1000000},
                                    {"GB", 1000000000},
                                    {"KIB", 1ull << 10},
                                    {"MIB", 1ull << 20},
                                    {"GIB", 1ull << 30},
                                    {"K", 1000},
                                    {"M", 1000000},
                                    {"G", 1000000000}};
  for (const Unit& u : kUnits) {
    if (unit != u.name) continue;
    if (number > UINT64_MAX / u.factor) return std::nullopt;
    return number * u.factor;
  }
  return std::nullopt;
}

}  // namespace snapscope
