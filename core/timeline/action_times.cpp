#include "core/timeline/action_times.h"

#include <algorithm>

#include "core/util/prefault.h"

namespace snapscope {

ActionTimes::ActionTimes(std::initializer_list<int64_t> times) {
  reserve(times.size());
  for (const int64_t time : times) push_back(time);
}

void ActionTimes::reserve(size_t actions) {
  offsets_.reserve(actions);
  advise_huge_pages(offsets_.data(), offsets_.capacity() * sizeof(uint32_t));  // filled front to back
  bases_.reserve((actions + kRun - 1) / kRun);
}

void ActionTimes::push_back(int64_t time_us) {
  offsets_.push_back(kAbsent);
  if (bases_.size() < (offsets_.size() + kRun - 1) / kRun) bases_.push_back(kNoTime);
  store(offsets_.size() - 1, time_us);
}

void ActionTimes::set(size_t index, int64_t time_us) {
  if (offsets_[index] == kWhole) whole_.erase(whole_at(index));
  store(index, time_us);
}

void ActionTimes::assign(size_t actions, int64_t time_us) {
  clear();
  reserve(actions);
  for (size_t i = 0; i < actions; ++i) push_back(time_us);
}

void ActionTimes::clear() {
  offsets_.clear();
  bases_.clear();
  whole_.clear();
}

// An offset from the run's base when it fits below the markers, else the whole time.
void ActionTimes::store(size_t index, int64_t time_us) {
  if (time_us == kNoTime) {
    offsets_[index] = kAbsent;
    return;
  }
  int64_t& base = bases_[index / kRun];
  if (base == kNoTime) base = time_us;
  if (time_us >= base && static_cast<uint64_t>(time_us) - static_cast<uint64_t>(base) < kWhole) {
    offsets_[index] = static_cast<uint32_t>(static_cast<uint64_t>(time_us) - static_cast<uint64_t>(base));
    return;
  }
  offsets_[index] = kWhole;
  whole_.insert(whole_at(index), {index, time_us});  // at the end when filled front to back
}

int64_t ActionTimes::whole_time(size_t index) const { return whole_at(index)->second; }

size_t ActionTimes::memory_bytes() const {
  return offsets_.capacity() * sizeof(uint32_t) + bases_.capacity() * sizeof(int64_t) +
         whole_.capacity() * sizeof(whole_[0]);
}

bool operator==(const ActionTimes& a, const ActionTimes& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

}  // namespace snapscope
