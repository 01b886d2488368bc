#include "core/util/packed_int64s.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "core/util/prefault.h"

namespace snapscope {

PackedInt64s::PackedInt64s(std::initializer_list<int64_t> values) {
  reserve(values.size());
  for (const int64_t value : values) push_back(value);
}

void PackedInt64s::check_parts() const {
  const auto bad = [](const char* what) {
    throw std::invalid_argument(std::string("packed values: ") + what);
  };
  const size_t runs = (offsets_.size() + kRun - 1) / kRun;
  if (bases_.size() != runs || run_wide_.size() != runs) bad("run arrays of the wrong size");
  if (wide_.size() % kRun != 0) bad("wide values not in whole runs");
  const size_t wide_runs = wide_.size() / kRun;
  for (const uint32_t block : run_wide_)
    if (block != kNotWide && block >= wide_runs) bad("a wide run past the wide values");
  for (size_t index = 0; index < offsets_.size(); ++index) {
    if (offsets_[index] == kWide && run_wide_[index / kRun] == kNotWide) bad("a wide value in a narrow run");
  }
}

void PackedInt64s::reserve(size_t count) {
  offsets_.reserve(count);
  advise_huge_pages(offsets_);  // filled front to back
  bases_.reserve((count + kRun - 1) / kRun);
  run_wide_.reserve((count + kRun - 1) / kRun);
}

void PackedInt64s::push_back(int64_t value) {
  offsets_.push_back(kAbsent);
  if (bases_.size() < (offsets_.size() + kRun - 1) / kRun) {
    bases_.push_back(kAbsentValue);
    run_wide_.push_back(kNotWide);
  }
  set(offsets_.size() - 1, value);
}

void PackedInt64s::assign(size_t count, int64_t value) {
  clear();
  reserve(count);
  for (size_t i = 0; i < count; ++i) push_back(value);
}

void PackedInt64s::clear() {
  offsets_.clear();
  bases_.clear();
  run_wide_.clear();
  wide_.clear();
}

// An offset from the run's base when it fits below the markers, else the run goes wide.
void PackedInt64s::set(size_t index, int64_t value) {
  const size_t run = index / kRun;
  if (run_wide_[run] != kNotWide) {
    offsets_[index] = kWide;
    wide_[wide_slot(index)] = value;
    return;
  }
  if (value == kAbsentValue) {
    offsets_[index] = kAbsent;
    return;
  }
  int64_t& base = bases_[run];
  if (base == kAbsentValue) base = value;
  // In unsigned arithmetic, so that values far from the base wrap instead of overflowing.
  const uint64_t offset = static_cast<uint64_t>(value) - static_cast<uint64_t>(base) + kBias;
  if (offset < kWide) {
    offsets_[index] = static_cast<uint32_t>(offset);
    return;
  }
  make_wide(run);
  wide_[wide_slot(index)] = value;
}

void PackedInt64s::make_wide(size_t run) {
  // 4 bytes per run: 2^32 wide runs would take 8 TiB of wide_.
  if (wide_.size() / kRun >= kNotWide) throw std::length_error("PackedInt64s: too many wide runs");
  const size_t first = run * kRun, end = std::min(offsets_.size(), first + kRun);
  const size_t block = wide_.size();
  wide_.resize(block + kRun, kAbsentValue);
  for (size_t index = first; index < end; ++index) wide_[block + index - first] = (*this)[index];
  run_wide_[run] = static_cast<uint32_t>(block / kRun);
  std::fill(offsets_.begin() + static_cast<std::ptrdiff_t>(first),
            offsets_.begin() + static_cast<std::ptrdiff_t>(end), kWide);
}

size_t PackedInt64s::memory_bytes() const {
  return offsets_.capacity() * sizeof(uint32_t) + bases_.capacity() * sizeof(int64_t) +
         run_wide_.capacity() * sizeof(uint32_t) + wide_.capacity() * sizeof(int64_t);
}

bool operator==(const PackedInt64s& a, const PackedInt64s& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

}  // namespace snapscope
