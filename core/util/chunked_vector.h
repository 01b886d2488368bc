// An append-only array stored in fixed-size chunks. Growing never copies or moves elements,
// so a multi-hundred-MB pool costs its size, not the 2x a std::vector reallocation peaks at.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace snapscope {

template <typename T, size_t kChunkBits = 16>
class ChunkedVector {
 public:
  static constexpr size_t kChunkSize = size_t{1} << kChunkBits;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](size_t i) { return chunks_[i >> kChunkBits][i & (kChunkSize - 1)]; }
  const T& operator[](size_t i) const { return chunks_[i >> kChunkBits][i & (kChunkSize - 1)]; }

  // Chunk c's storage: kChunkSize slots, of which the first min(kChunkSize, size() - c *
  // kChunkSize) are elements. It never moves while the container grows.
  const T* chunk_data(size_t c) const { return chunks_[c].get(); }

  void push_back(const T& value) {
    if ((size_ >> kChunkBits) == chunks_.size()) chunks_.push_back(std::make_unique<T[]>(kChunkSize));
    (*this)[size_++] = value;
  }

  // Moves all elements into one contiguous vector, freeing each chunk once it is copied, so
  // the peak is the final vector plus one chunk. Leaves this container empty.
  std::vector<T> drain_to_vector() {
    std::vector<T> out;
    out.reserve(size_);
    for (size_t c = 0; c < chunks_.size(); ++c) {
      size_t n = std::min(kChunkSize, size_ - c * kChunkSize);
      out.insert(out.end(), chunks_[c].get(), chunks_[c].get() + n);
      chunks_[c].reset();
    }
    clear();
    return out;
  }

  void clear() {
    chunks_.clear();
    size_ = 0;
  }

 private:
  std::vector<std::unique_ptr<T[]>> chunks_;
  size_t size_ = 0;
};

}  // namespace snapscope
