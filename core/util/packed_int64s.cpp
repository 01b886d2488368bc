#include "core/util/packed_int64s.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "core/util/prefault.h"

namespace snapscope {

PackedInt64s::PackedInt64s(std::initializer_list<int64_t> values) {
  reserve(values.size());
  for (const int64_t value : values) push_back(value);
}

void PackedInt64s::reserve(size_t count) {
  offsets_.reserve(count);
  advise_huge_pages(offsets_.data(), offsets_.capacity() * sizeof(uint32_t));  // filled front to back
  bases_.reserve((count + kRun - 1) / kRun);
  run_first_whole_.reserve((count + kRun - 1) / kRun);
}

void PackedInt64s::push_back(int64_t value) {
  offsets_.push_back(kAbsent);
  if (bases_.size() < (offsets_.size() + kRun - 1) / kRun) {
    bases_.push_back(kAbsentValue);
    // 4 bytes per run: 2^32 whole values would take 64 GiB of whole_ alone.
    if (whole_.size() > UINT32_MAX) throw std::length_error("PackedInt64s: more than 2^32 values kept whole");
    run_first_whole_.push_back(static_cast<uint32_t>(whole_.size()));
  }
  store(offsets_.size() - 1, value);
}

void PackedInt64s::set(size_t index, int64_t value) {
  if (offsets_[index] == kWhole) {
    whole_.erase(whole_at(index));
    shift_later_runs(index, -1);
  }
  store(index, value);
}

void PackedInt64s::assign(size_t count, int64_t value) {
  clear();
  reserve(count);
  for (size_t i = 0; i < count; ++i) push_back(value);
}

void PackedInt64s::clear() {
  offsets_.clear();
  bases_.clear();
  whole_.clear();
  run_first_whole_.clear();
}

// An offset from the run's base when it fits below the markers, else the whole value.
void PackedInt64s::store(size_t index, int64_t value) {
  if (value == kAbsentValue) {
    offsets_[index] = kAbsent;
    return;
  }
  int64_t& base = bases_[index / kRun];
  if (base == kAbsentValue) base = value;
  // In unsigned arithmetic, so that values far from the base wrap instead of overflowing.
  const uint64_t offset = static_cast<uint64_t>(value) - static_cast<uint64_t>(base) + kBias;
  if (offset < kWhole) {
    offsets_[index] = static_cast<uint32_t>(offset);
    return;
  }
  offsets_[index] = kWhole;
  whole_.insert(whole_at(index), {index, value});  // at the end when filled front to back
  shift_later_runs(index, +1);
}

void PackedInt64s::shift_later_runs(size_t index, int delta) {
  for (size_t run = index / kRun + 1; run < run_first_whole_.size(); ++run)  // none when filled in order
    run_first_whole_[run] = static_cast<uint32_t>(static_cast<int64_t>(run_first_whole_[run]) + delta);
}

int64_t PackedInt64s::whole_value(size_t index) const { return whole_at(index)->second; }

size_t PackedInt64s::memory_bytes() const {
  return offsets_.capacity() * sizeof(uint32_t) + bases_.capacity() * sizeof(int64_t) +
         whole_.capacity() * sizeof(whole_[0]) + run_first_whole_.capacity() * sizeof(uint32_t);
}

bool operator==(const PackedInt64s& a, const PackedInt64s& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

}  // namespace snapscope
