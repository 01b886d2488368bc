// libFuzzer harness: the viewer's --script text and its argument parsers (view spec, sizes,
// addresses). std::invalid_argument is the documented failure; a parsed view must be finite.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "core/view/script.h"
#include "fuzz_fixture.h"

using namespace snapscope;

namespace {

template <typename Parse>
void try_parse(Parse parse) {
  try {
    parse();
  } catch (const std::invalid_argument&) {
  }
}

void check_finite(double value) {
  if (!std::isfinite(value)) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = fuzz::as_text(data, size);
  try_parse([&] { (void)parse_script(text, "fuzz.script"); });
  const std::string_view first_line = text.substr(0, text.find('\n'));
  try_parse([&] {
    const ViewSpec view = parse_view_spec(first_line);
    check_finite(view.x0);
    check_finite(view.x1);
    if (view.y0) check_finite(*view.y0);
    if (view.y1) check_finite(*view.y1);
  });
  try_parse([&] { check_finite(parse_byte_count(first_line)); });
  try_parse([&] { (void)parse_window_size(first_line); });
  try_parse([&] { (void)parse_address(first_line); });
  return 0;
}
