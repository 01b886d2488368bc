// An append-only array in one reserved range of address space: elements never move, indexing
// is a plain offset (no chunk table), and pages are taken only as they are written. Past its
// first 2 MiB the range asks for transparent huge pages, so a multi-GB pickle's memo costs one
// page fault per 2 MiB, not per 4 KiB (page faults were a sixth of the reader's time in a VM),
// while a fuzzer's tiny inputs touch a few small pages.
#pragma once

#include <cstddef>
#include <cstring>
#include <new>
#include <stdexcept>
#include <type_traits>

namespace snapscope {

namespace reserved_memory {
// Reserves `bytes` of address space, readable and writable, backed by zero pages on first write.
// Throws std::bad_alloc when the system refuses.
void* reserve(size_t bytes);
void release(void* begin, size_t bytes);
}  // namespace reserved_memory

template <typename T>
class ReservedArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  // Reserves room for `max_elements`; push_back past it throws std::length_error.
  explicit ReservedArray(size_t max_elements)
      : capacity_(max_elements), data_(static_cast<T*>(reserved_memory::reserve(bytes()))) {}
  ~ReservedArray() { reserved_memory::release(data_, bytes()); }
  ReservedArray(const ReservedArray&) = delete;
  ReservedArray& operator=(const ReservedArray&) = delete;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return capacity_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& back() { return data_[size_ - 1]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }

  T* data() { return data_; }
  // For a writer that stores elements [size(), size) through data() itself (no check per
  // element); `size` must not exceed capacity().
  void set_size(size_t size) { size_ = size; }

  void pop_back() { --size_; }
  // Drops the elements from `size` on (their pages stay taken, for the next pushes).
  void truncate(size_t size) {
    if (size < size_) size_ = size;
  }

  // Appends a value-initialised element and returns it, for a caller that fills it in place.
  T& emplace_back() {
    if (size_ == capacity_) [[unlikely]]
      throw std::length_error("ReservedArray is full");
    ::new (static_cast<void*>(data_ + size_)) T();
    return data_[size_++];
  }

  void push_back(const T& value) {
    if (size_ == capacity_) [[unlikely]]
      throw std::length_error("ReservedArray is full");
    ::new (static_cast<void*>(data_ + size_)) T(value);
    ++size_;
  }

 private:
  size_t bytes() const { return capacity_ * sizeof(T); }

  size_t capacity_;
  T* data_;
  size_t size_ = 0;
};

}  // namespace snapscope
