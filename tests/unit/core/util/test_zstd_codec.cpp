// The layout file's Zstandard: frames that record their size (decoded in parallel, in place) and
// frames that do not (streamed), and a decoder that refuses damaged or oversized content with a
// reason instead of crashing or allocating without bound.
#include <doctest/doctest.h>

#include <zstd.h>

#include <string>

#include "core/util/zstd_codec.h"

using namespace snapscope;

namespace {

// `text` as ZstdEncoder frames of `piece` bytes each, as BufferedFile writes them.
std::string framed(const std::string& text, size_t piece) {
  ZstdEncoder encoder;
  std::string out;
  for (size_t at = 0; at < text.size(); at += piece)
    encoder.compress_frame(std::string_view(text).substr(at, piece), out);
  if (text.empty()) encoder.compress_frame({}, out);
  return out;
}

// `text` as one frame that does not state its size (what `zstd` writes from a pipe).
std::string streamed(const std::string& text) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 0);
  std::string out(ZSTD_compressBound(text.size()) + 64, '\0');
  ZSTD_inBuffer in{text.data(), text.size(), 0};
  ZSTD_outBuffer to{out.data(), out.size(), 0};
  size_t left = 0;
  do {
    left = ZSTD_compressStream2(cctx, &to, &in, ZSTD_e_end);
    REQUIRE_FALSE(ZSTD_isError(left));
  } while (left != 0);
  ZSTD_freeCCtx(cctx);
  out.resize(to.pos);
  return out;
}

std::string numbers(size_t count) {
  std::string text;
  for (size_t i = 0; i < count; ++i) text += std::to_string(i * 7919 % 100003) + ",";
  return text;
}

}  // namespace

TEST_CASE("zstd: text in sized frames or one streamed frame decompresses to itself") {
  const std::string text = numbers(200'000);
  const std::string packed = framed(text, 100'000);  // a dozen frames, decoded in parallel
  CHECK(starts_zstd_frame(packed));
  CHECK_FALSE(starts_zstd_frame(text));
  CHECK_FALSE(starts_zstd_frame("\x28\xB5\x2F"));
  CHECK(packed.size() < text.size() / 2);
  const ZstdDecoded decoded = zstd_decompress(packed, text.size());
  REQUIRE_FALSE(decoded.error);
  CHECK(decoded.content() == text);

  const std::string unsized = streamed(text);
  CHECK(ZSTD_getFrameContentSize(unsized.data(), unsized.size()) == ZSTD_CONTENTSIZE_UNKNOWN);
  const ZstdDecoded from_stream = zstd_decompress(unsized, text.size());
  REQUIRE_FALSE(from_stream.error);
  CHECK(from_stream.content() == text);
  // Both kinds one after the other.
  const ZstdDecoded mixed = zstd_decompress(packed + unsized, 2 * text.size());
  REQUIRE_FALSE(mixed.error);
  CHECK(mixed.content() == text + text);

  // Thousands of tiny frames are streamed rather than listed, and still give the whole text.
  std::string many;
  for (int i = 0; i < 5000; ++i) many += framed("7,", 2);
  const ZstdDecoded from_many = zstd_decompress(many, 1 << 20);
  REQUIRE_FALSE(from_many.error);
  CHECK(from_many.content().size() == 10000);

  // An empty text is one empty frame.
  const ZstdDecoded empty = zstd_decompress(framed("", 1), 1);
  REQUIRE_FALSE(empty.error);
  CHECK(empty.content().empty());
}

TEST_CASE("zstd: damaged, truncated, padded or oversized content is refused with a reason") {
  const std::string text = numbers(50'000);
  for (const bool sized : {true, false}) {
    CAPTURE(sized);
    const std::string packed = sized ? framed(text, 1 << 20) : streamed(text);

    const ZstdDecoded truncated = zstd_decompress(packed.substr(0, packed.size() / 2), 1 << 30);
    CHECK(truncated.error == std::optional<std::string>("truncated zstd data"));
    CHECK(truncated.content().empty());

    std::string flipped = packed;
    flipped[flipped.size() - 2] = static_cast<char>(flipped[flipped.size() - 2] ^ 0x10);  // the checksum
    const ZstdDecoded damaged = zstd_decompress(flipped, 1 << 30);
    REQUIRE(damaged.error);
    CHECK(damaged.error->starts_with("corrupt zstd data ("));

    const ZstdDecoded padded = zstd_decompress(packed + "trailing", 1 << 30);
    REQUIRE(padded.error);
    CHECK(padded.error->starts_with("corrupt zstd data ("));
  }

  // A few KB that claim far more than allowed: refused at the limit, not allocated.
  const std::string zeros(64 << 20, '0');
  for (const std::string& bomb : {framed(zeros, 8 << 20), streamed(zeros)}) {
    CHECK(bomb.size() < 64 << 10);
    const ZstdDecoded too_big = zstd_decompress(bomb, 1 << 20);
    CHECK(too_big.error == std::optional<std::string>("decompresses to more than 1048576 bytes"));
    CHECK(too_big.content().empty());
    // Exactly at the limit is fine.
    const ZstdDecoded at_limit = zstd_decompress(bomb, 64 << 20);
    REQUIRE_FALSE(at_limit.error);
    CHECK(at_limit.content().size() == size_t{64} << 20);
  }
}
