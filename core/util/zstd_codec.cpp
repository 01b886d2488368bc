#include "core/util/zstd_codec.h"

#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "core/util/parallel_jobs.h"
#include "core/util/prefault.h"

namespace snapscope {
namespace {

// Why a decode failed; the message is the caller's reason.
struct DecodeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void fail_with(size_t zstd_error) {
  if (ZSTD_getErrorCode(zstd_error) == ZSTD_error_srcSize_wrong) throw DecodeError("truncated zstd data");
  throw DecodeError(std::string("corrupt zstd data (") + ZSTD_getErrorName(zstd_error) + ")");
}

[[noreturn]] void too_big(size_t max_bytes) {
  throw DecodeError("decompresses to more than " + std::to_string(max_bytes) + " bytes");
}

struct Frame {
  std::string_view compressed;
  size_t content_offset = 0;
  size_t content_size = 0;
};

// More frames than ZstdEncoder writes for 32 GiB of text: not decoded one job each (a few bytes
// per empty frame would otherwise make the frame list a memory bomb of its own) but streamed.
constexpr size_t kMaxParallelFrames = 4096;

// The frames of `compressed` and their total content size, if every frame states its size and
// there are not too many.
std::optional<std::vector<Frame>> sized_frames(std::string_view compressed, size_t max_bytes, size_t& total) {
  std::vector<Frame> frames;
  total = 0;
  for (size_t at = 0; at < compressed.size();) {
    if (frames.size() == kMaxParallelFrames) return std::nullopt;
    const std::string_view rest = compressed.substr(at);
    const size_t frame_bytes = ZSTD_findFrameCompressedSize(rest.data(), rest.size());
    if (ZSTD_isError(frame_bytes)) fail_with(frame_bytes);
    const unsigned long long content = ZSTD_getFrameContentSize(rest.data(), frame_bytes);
    if (content == ZSTD_CONTENTSIZE_UNKNOWN) return std::nullopt;
    if (content == ZSTD_CONTENTSIZE_ERROR) throw DecodeError("corrupt zstd data (bad frame header)");
    if (content > max_bytes - total) too_big(max_bytes);
    frames.push_back({rest.substr(0, frame_bytes), total, static_cast<size_t>(content)});
    total += static_cast<size_t>(content);
    at += frame_bytes;
  }
  return frames;
}

void decode_frames(const std::vector<Frame>& frames, char* out) {
  ParallelJobs jobs;
  for (const Frame& frame : frames) {
    jobs.add(frame.content_size, [&frame, out] {
      char* destination = out + frame.content_offset;
      const size_t written =
          ZSTD_decompress(destination, frame.content_size, frame.compressed.data(), frame.compressed.size());
      if (ZSTD_isError(written)) fail_with(written);
      if (written != frame.content_size)
        throw DecodeError("corrupt zstd data (frame shorter than its header says)");
    });
  }
  jobs.run();
}

// Frames without a stated size: streamed into a buffer grown by doubling, up to max_bytes.
std::unique_ptr<char[]> decode_stream(std::string_view compressed, size_t max_bytes, size_t& size) {
  struct DCtxDeleter {
    void operator()(ZSTD_DCtx* dctx) const { ZSTD_freeDCtx(dctx); }
  };
  const std::unique_ptr<ZSTD_DCtx, DCtxDeleter> dctx(ZSTD_createDCtx());
  if (!dctx) throw std::bad_alloc();
  size_t capacity = std::min(max_bytes, std::max<size_t>(compressed.size() * 8, 1 << 16));
  auto buffer = std::make_unique_for_overwrite<char[]>(capacity);
  size = 0;
  ZSTD_inBuffer in{compressed.data(), compressed.size(), 0};
  for (;;) {
    if (size == capacity) {
      if (capacity == max_bytes) too_big(max_bytes);
      capacity = capacity > max_bytes / 2 ? max_bytes : capacity * 2;
      auto grown = std::make_unique_for_overwrite<char[]>(capacity);
      std::memcpy(grown.get(), buffer.get(), size);
      buffer = std::move(grown);
    }
    ZSTD_outBuffer out{buffer.get() + size, capacity - size, 0};
    const size_t frame_left = ZSTD_decompressStream(dctx.get(), &out, &in);
    size += out.pos;
    if (ZSTD_isError(frame_left)) fail_with(frame_left);
    // All input read, and the last frame ended or the decoder had room to spare (so it holds
    // nothing back: a frame left open is truncated).
    if (in.pos == in.size && (frame_left == 0 || out.pos < out.size)) {
      if (frame_left != 0) throw DecodeError("truncated zstd data");
      return buffer;
    }
  }
}

}  // namespace

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

void ZstdEncoder::compress_frame(std::string_view input, std::string& output) {
  const size_t start = output.size();
  output.resize(start + ZSTD_compressBound(input.size()));
  const size_t written = ZSTD_compress2(context_->cctx, output.data() + start, output.size() - start,
                                        input.data(), input.size());
  if (ZSTD_isError(written)) {
    output.resize(start);
    throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(written));
  }
  output.resize(start + written);
}

ZstdDecoded zstd_decompress(std::string_view compressed, size_t max_bytes) {
  ZstdDecoded result;
  try {
    size_t total = 0;
    if (compressed.empty()) throw DecodeError("truncated zstd data");
    if (const auto frames = sized_frames(compressed, max_bytes, total)) {
      result.bytes_ = std::make_unique_for_overwrite<char[]>(std::max<size_t>(total, 1));
      advise_huge_pages(result.bytes_.get(), total);  // written once by the frames' jobs
      decode_frames(*frames, result.bytes_.get());
      result.size_ = total;
    } else {
      result.bytes_ = decode_stream(compressed, max_bytes, result.size_);
    }
  } catch (const DecodeError& error) {
    result = ZstdDecoded();
    result.error = error.what();
  }
  return result;
}

}  // namespace snapscope
