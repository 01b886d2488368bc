#include "core/gen/gzip_ostream.h"

#include <stdexcept>

namespace snapscope::gen {
namespace {
constexpr size_t kChunk = 1 << 18;
constexpr int kGzipWindowBits = 15 + 16;  // +16 asks zlib for a gzip header and trailer
}  // namespace

GzipStreamBuf::GzipStreamBuf(std::ostream& sink, int level) : sink_(sink), in_(kChunk), out_(kChunk) {
  if (deflateInit2(&zs_, level, Z_DEFLATED, kGzipWindowBits, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("gzip: deflateInit2 failed");
  setp(in_.data(), in_.data() + in_.size());
}

GzipStreamBuf::~GzipStreamBuf() {
  finish();
  deflateEnd(&zs_);
}

GzipStreamBuf::int_type GzipStreamBuf::overflow(int_type c) {
  if (!deflate_input(Z_NO_FLUSH)) return traits_type::eof();
  if (!traits_type::eq_int_type(c, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
  }
  return traits_type::not_eof(c);
}

int GzipStreamBuf::sync() { return deflate_input(Z_NO_FLUSH) ? 0 : -1; }

// Compresses what is buffered in [pbase, pptr) and writes the output to the sink.
bool GzipStreamBuf::deflate_input(int flush) {
  if (finished_ || !ok_) return ok_ && flush != Z_FINISH;
  zs_.next_in = reinterpret_cast<Bytef*>(pbase());
  zs_.avail_in = static_cast<uInt>(pptr() - pbase());
  int status = Z_OK;
  do {
    zs_.next_out = reinterpret_cast<Bytef*>(out_.data());
    zs_.avail_out = static_cast<uInt>(out_.size());
    status = deflate(&zs_, flush);
    if (status == Z_STREAM_ERROR) return ok_ = false;
    sink_.write(out_.data(), static_cast<std::streamsize>(out_.size() - zs_.avail_out));
  } while (zs_.avail_out == 0 || (flush == Z_FINISH && status != Z_STREAM_END));
  setp(in_.data(), in_.data() + in_.size());
  ok_ = ok_ && static_cast<bool>(sink_);
  return ok_;
}

bool GzipStreamBuf::finish() {
  if (finished_) return ok_;
  const bool done = deflate_input(Z_FINISH);
  finished_ = true;
  sink_.flush();
  return done && static_cast<bool>(sink_);
}

}  // namespace snapscope::gen
