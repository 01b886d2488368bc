// An std::ostream that gzip-compresses into another stream (for `snapscope-gen --gzip`).
#pragma once

#include <zlib.h>

#include <ostream>
#include <streambuf>
#include <vector>

namespace snapscope::gen {

class GzipStreamBuf : public std::streambuf {
 public:
  explicit GzipStreamBuf(std::ostream& sink, int level = 6);
  ~GzipStreamBuf() override;
  GzipStreamBuf(const GzipStreamBuf&) = delete;
  GzipStreamBuf& operator=(const GzipStreamBuf&) = delete;

  bool finish();  // writes the gzip trailer; false if compression or the sink failed

 protected:
  int_type overflow(int_type c) override;
  int sync() override;

 private:
  bool deflate_input(int flush);

  std::ostream& sink_;
  z_stream zs_{};
  std::vector<char> in_;
  std::vector<char> out_;
  bool finished_ = false;
  bool ok_ = true;
};

class GzipOStream : public std::ostream {
 public:
  explicit GzipOStream(std::ostream& sink, int level = 6) : std::ostream(nullptr), buf_(sink, level) {
    rdbuf(&buf_);
  }
  bool finish() { return buf_.finish(); }

 private:
  GzipStreamBuf buf_;
};

}  // namespace snapscope::gen
