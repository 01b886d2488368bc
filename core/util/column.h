// An array of plain values that is either owned (built like a std::vector) or a read-only view
// of memory that something else keeps alive, such as a file mapped into memory: a timeline
// image (core/store/timeline_image) hands its arrays to the timelines without copying them, so a
// warm open faults in page-cache pages instead of zeroing and filling fresh ones.
//
// Reading is the same in both states (one pointer and one size). Anything that writes first
// turns a view into an owned copy, so a view is never written through; the builders that write
// only ever see owned columns.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace snapscope {

template <typename T>
class Column {
  static_assert(std::is_trivially_copyable_v<T>, "a column's bytes are its values");

 public:
  using value_type = T;

  Column() = default;
  Column(std::initializer_list<T> values) : owned_(values) { sync(); }
  Column(size_t count, const T& value) : owned_(count, value) { sync(); }
  explicit Column(std::vector<T> values) : owned_(std::move(values)) { sync(); }
  // A view of `count` values at `data`, valid while `keeper` lives.
  static Column view(const T* data, size_t count, std::shared_ptr<const void> keeper) {
    Column column;
    column.keeper_ = std::move(keeper);
    column.data_ = data;
    column.size_ = count;
    return column;
  }

  Column(const Column& other) : owned_(other.owned_), keeper_(other.keeper_) { adopt(other); }
  Column(Column&& other) noexcept : owned_(std::move(other.owned_)), keeper_(std::move(other.keeper_)) {
    adopt(other);
    other.reset_view();
  }
  Column& operator=(const Column& other) {
    if (this != &other) *this = Column(other);
    return *this;
  }
  Column& operator=(Column&& other) noexcept {
    owned_ = std::move(other.owned_);
    keeper_ = std::move(other.keeper_);
    adopt(other);
    other.reset_view();
    return *this;
  }
  Column& operator=(std::vector<T> values) {
    owned_ = std::move(values);
    keeper_.reset();
    sync();
    return *this;
  }
  Column& operator=(std::initializer_list<T> values) { return *this = std::vector<T>(values); }
  ~Column() = default;

  bool is_view() const { return keeper_ != nullptr; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T* data() const { return data_; }
  const T& operator[](size_t index) const { return data_[index]; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  const T& front() const { return data_[0]; }
  const T& back() const { return data_[size_ - 1]; }
  std::span<const T> span() const { return {data_, size_}; }
  operator std::span<const T>() const { return span(); }  // NOLINT: reads like a vector's

  // Writing: the owned vector (a view is copied into one first).
  T* data() { return own().data(); }
  T& operator[](size_t index) { return own()[index]; }
  T* begin() { return own().data(); }
  T* end() { return own().data() + size_; }
  T& back() { return own().back(); }
  size_t capacity() const { return owned_.capacity(); }  // 0 for a view: it holds no heap
  void reserve(size_t count) {
    edit([&](auto& values) { values.reserve(count); });
  }
  void resize(size_t count) {
    edit([&](auto& values) { values.resize(count); });
  }
  void resize(size_t count, const T& value) {
    edit([&](auto& values) { values.resize(count, value); });
  }
  void assign(size_t count, const T& value) {
    edit([&](auto& values) { values.assign(count, value); });
  }
  template <typename It>
  void assign(It first, It last) {
    edit([&](auto& values) { values.assign(first, last); });
  }
  void push_back(const T& value) {
    own().push_back(value);
    sync();
  }
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    T& added = own().emplace_back(std::forward<Args>(args)...);
    sync();
    return added;
  }
  void pop_back() {
    edit([](auto& values) { values.pop_back(); });
  }
  void clear() {
    edit([](auto& values) { values.clear(); });
  }

  friend bool operator==(const Column& a, const Column& b) { return a.span_equals(b.span()); }
  friend bool operator==(const Column& a, const std::vector<T>& b) { return a.span_equals(b); }

 private:
  bool span_equals(std::span<const T> other) const {
    if (size_ != other.size()) return false;
    for (size_t i = 0; i < size_; ++i)
      if (!(data_[i] == other[i])) return false;
    return true;
  }
  std::vector<T>& own() {
    if (is_view()) {
      owned_.assign(data_, data_ + size_);
      keeper_.reset();
      sync();
    }
    return owned_;
  }
  template <typename Edit>
  void edit(Edit&& change) {
    change(own());
    sync();
  }
  void sync() {
    data_ = owned_.data();
    size_ = owned_.size();
  }
  void adopt(const Column& other) {
    if (is_view()) {
      data_ = other.data_;
      size_ = other.size_;
    } else {
      sync();
    }
  }
  void reset_view() {
    keeper_.reset();
    sync();
  }

  std::vector<T> owned_;
  std::shared_ptr<const void> keeper_;  // set for a view
  const T* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace snapscope
