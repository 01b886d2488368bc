#include "core/util/zstd_codec.h"

#include <zstd.h>

#include <algorithm>
#include <stdexcept>

namespace snapscope {

bool starts_zstd_frame(std::string_view bytes) {
  // ZSTD_MAGICNUMBER, little-endian
  return bytes.size() >= 4 && static_cast<unsigned char>(bytes[0]) == 0x28 &&
         static_cast<unsigned char>(bytes[1]) == 0xB5 && static_cast<unsigned char>(bytes[2]) == 0x2F &&
         static_cast<unsigned char>(bytes[3]) == 0xFD;
}

struct ZstdEncoder::Context {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ~Context() { ZSTD_freeCCtx(cctx); }
};

ZstdEncoder::ZstdEncoder() : context_(std::make_unique<Context>()) {
  if (context_->cctx == nullptr) throw std::bad_alloc();
  ZSTD_CCtx_setParameter(context_->cctx, ZSTD_c_compressionLevel, 1);
  ZSTD_CCtx_setParameter(context_->cctx, ZSTD_c_checksumFlag,
                         1);  // a flipped bit is an error, not a wrong chart
}

ZstdEncoder::~ZstdEncoder() = default;

void ZstdEncoder::compress(std::string_view input, bool last, std::string& output) {
  ZSTD_inBuffer in{input.data(), input.size(), 0};
  const ZSTD_EndDirective mode = last ? ZSTD_e_end : ZSTD_e_continue;
  for (;;) {
    const size_t start = output.size();
    output.resize(start + ZSTD_CStreamOutSize());
    ZSTD_outBuffer out{output.data() + start, output.size() - start, 0};
    const size_t remaining = ZSTD_compressStream2(context_->cctx, &out, &in, mode);
    output.resize(start + out.pos);
    if (ZSTD_isError(remaining))
      throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(remaining));
    const bool done = last ? remaining == 0 : in.pos == in.size;
    if (done) return;
  }
}

ZstdDecoded zstd_decompress(std::string_view compressed, size_t max_bytes) {
  ZstdDecoded result;
  ZSTD_DCtx* dctx = ZSTD_createDCtx();
  if (dctx == nullptr) throw std::bad_alloc();
  ZSTD_inBuffer in{compressed.data(), compressed.size(), 0};
  size_t frame_left = 1;  // 0 once the last frame read has ended
  // Grown as content arrives (a frame's declared size is not trusted), in steps that keep
  // the copies few: from a guess of 8x the input, doubling.
  size_t capacity = std::min(max_bytes, std::max<size_t>(compressed.size() * 8, 1 << 16));
  for (;;) {
    if (result.content.size() == capacity) {
      if (capacity == max_bytes) {
        result.error = "decompresses to more than " + std::to_string(max_bytes) + " bytes";
        break;
      }
      capacity = capacity > max_bytes / 2 ? max_bytes : capacity * 2;
    }
    const size_t start = result.content.size();
    result.content.resize(capacity);
    ZSTD_outBuffer out{result.content.data() + start, capacity - start, 0};
    frame_left = ZSTD_decompressStream(dctx, &out, &in);
    result.content.resize(start + out.pos);
    if (ZSTD_isError(frame_left)) {
      result.error = std::string("corrupt zstd data (") + ZSTD_getErrorName(frame_left) + ")";
      break;
    }
    // All input read, and the last frame ended or the decoder had room to spare (so it holds
    // nothing back: a frame left open is truncated).
    if (in.pos == in.size && (frame_left == 0 || out.pos < out.size)) break;
  }
  ZSTD_freeDCtx(dctx);
  if (!result.error && frame_left != 0) result.error = "truncated zstd data";
  if (result.error) result.content = std::string();
  return result;
}

}  // namespace snapscope
