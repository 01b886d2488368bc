// An append-only array stored in fixed-size chunks. Growing never copies or moves elements,
// so a multi-hundred-MB pool costs its size, not the 2x a std::vector reallocation peaks at.
// A chunk's slots are left uninitialised until pushed: a fresh chunk costs no memset, and a
// small input touches only the pages it fills (what keeps a fuzzer's millions of tiny inputs
// fast, and a short trace's last chunk cheap).
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

#include "core/util/prefault.h"

namespace snapscope {

template <typename T, size_t kChunkBits = 16>
class ChunkedVector {
  // Elements are never destroyed one by one: chunks are freed as raw storage.
  static_assert(std::is_trivially_destructible_v<T> && std::is_trivially_copyable_v<T>);

 public:
  static constexpr size_t kChunkSize = size_t{1} << kChunkBits;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](size_t i) { return slot(i); }
  const T& operator[](size_t i) const { return const_cast<ChunkedVector*>(this)->slot(i); }

  // Chunk c's storage: kChunkSize slots, of which the first min(kChunkSize, size() - c *
  // kChunkSize) are elements. It never moves while the container grows.
  const T* chunk_data(size_t c) const { return std::launder(reinterpret_cast<const T*>(chunks_[c].get())); }

  void push_back(const T& value) {
    if ((size_ >> kChunkBits) == chunks_.size()) add_chunk();
    ::new (static_cast<void*>(chunks_[size_ >> kChunkBits].get()[size_ & (kChunkSize - 1)].bytes)) T(value);
    ++size_;
  }

  // Moves all elements into one contiguous vector, freeing each chunk once it is copied, so
  // the peak is the final vector plus one chunk. Leaves this container empty.
  std::vector<T> drain_to_vector() {
    std::vector<T> out;
    out.reserve(size_);
    if (chunks_.size() > 1) advise_huge_pages(out.data(), size_ * sizeof(T));
    for (size_t c = 0; c < chunks_.size(); ++c) {
      size_t n = std::min(kChunkSize, size_ - c * kChunkSize);
      out.insert(out.end(), chunk_data(c), chunk_data(c) + n);
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
  // Huge pages from the second chunk on: a small input (a fuzzer runs millions) must not have
  // 2 MiB pages zeroed for the few slots it fills.
  // A chunk of 2 MiB or more starts on a 2 MiB boundary, so huge pages can back all of it
  // (with kChunkSize * sizeof(T) a multiple of 2 MiB, every byte of it).
  void add_chunk() {
    chunks_.emplace_back(static_cast<Slot*>(::operator new (kChunkBytes, std::align_val_t{kChunkAlign})));
    if (chunks_.size() > 1) advise_huge_pages(chunks_.back().get(), kChunkBytes);
  }
  struct Slot {  // raw storage for one element; no constructor, so a chunk is left unwritten
    alignas(T) unsigned char bytes[sizeof(T)];
  };
  static constexpr size_t kChunkBytes = kChunkSize * sizeof(Slot);
  static constexpr size_t kHugePage = size_t{2} << 20;
  static constexpr size_t kChunkAlign = kChunkBytes >= kHugePage ? kHugePage : alignof(Slot);
  struct FreeChunk {
    void operator()(Slot* chunk) const { ::operator delete (chunk, std::align_val_t{kChunkAlign}); }
  };
  T& slot(size_t i) {
    return *std::launder(reinterpret_cast<T*>(chunks_[i >> kChunkBits].get()[i & (kChunkSize - 1)].bytes));
  }

  std::vector<std::unique_ptr<Slot, FreeChunk>> chunks_;
  size_t size_ = 0;
};

}  // namespace snapscope
