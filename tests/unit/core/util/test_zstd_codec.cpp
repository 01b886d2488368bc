// The layout file's Zstandard: streamed encoding in pieces, and a decoder that refuses damaged
// or oversized content with a reason instead of crashing or allocating without bound.
#include <doctest/doctest.h>

#include <string>

#include "core/util/zstd_codec.h"

using namespace snapscope;

namespace {

// `text` compressed in pieces of `piece` bytes, as BufferedFile feeds its flushes.
std::string compressed(const std::string& text, size_t piece) {
  ZstdEncoder encoder;
  std::string out;
  for (size_t at = 0; at < text.size(); at += piece) {
    encoder.compress(std::string_view(text).substr(at, piece), false, out);
  }
  encoder.compress({}, true, out);
  return out;
}

std::string numbers(size_t count) {
  std::string text;
  for (size_t i = 0; i < count; ++i) text += std::to_string(i * 7919 % 100003) + ",";
  return text;
}

}  // namespace

TEST_CASE("zstd: text compressed in pieces decompresses to itself, and is recognised") {
  const std::string text = numbers(200'000);
  const std::string packed = compressed(text, 4096);
  CHECK(starts_zstd_frame(packed));
  CHECK_FALSE(starts_zstd_frame(text));
  CHECK_FALSE(starts_zstd_frame("\x28\xB5\x2F"));
  CHECK(packed.size() < text.size() / 2);
  const ZstdDecoded decoded = zstd_decompress(packed, text.size());
  REQUIRE_FALSE(decoded.error);
  CHECK(decoded.content == text);
  // Nothing fed at all is still one (empty) frame.
  const ZstdDecoded empty = zstd_decompress(compressed("", 1), 1);
  REQUIRE_FALSE(empty.error);
  CHECK(empty.content.empty());
}

TEST_CASE("zstd: damaged, truncated, padded or oversized content is refused with a reason") {
  const std::string text = numbers(50'000);
  const std::string packed = compressed(text, 1 << 20);

  const ZstdDecoded truncated = zstd_decompress(packed.substr(0, packed.size() / 2), 1 << 30);
  CHECK(truncated.error == std::optional<std::string>("truncated zstd data"));
  CHECK(truncated.content.empty());

  std::string flipped = packed;
  flipped[flipped.size() / 2] = static_cast<char>(flipped[flipped.size() / 2] ^ 0x10);
  const ZstdDecoded damaged = zstd_decompress(flipped, 1 << 30);
  REQUIRE(damaged.error);
  CHECK(damaged.error->starts_with("corrupt zstd data ("));

  const ZstdDecoded padded = zstd_decompress(packed + "trailing", 1 << 30);
  REQUIRE(padded.error);
  CHECK(padded.error->starts_with("corrupt zstd data ("));

  // A few hundred bytes that claim far more than allowed: refused at the limit, not allocated.
  const std::string bomb = compressed(std::string(64 << 20, '0'), 1 << 20);
  CHECK(bomb.size() < 64 << 10);
  const ZstdDecoded too_big = zstd_decompress(bomb, 1 << 20);
  CHECK(too_big.error == std::optional<std::string>("decompresses to more than 1048576 bytes"));
  CHECK(too_big.content.empty());
  // Exactly at the limit is fine.
  const ZstdDecoded at_limit = zstd_decompress(bomb, 64 << 20);
  REQUIRE_FALSE(at_limit.error);
  CHECK(at_limit.content.size() == size_t{64} << 20);
}
