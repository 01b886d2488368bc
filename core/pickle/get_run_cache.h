// What a list of memoised values reduced to, by the bytes of its GETs. A trace entry's frames
// list is a new list each time, so pickle writes it out in full (MARK, a GET per frame,
// APPENDS) even when an earlier entry had the same frames: a real trace repeats a few thousand
// call stacks millions of times. The same GET bytes name the same memo entries, which hold the
// same values until one is overwritten, so their list reduces to the same value: the batch
// reader looks that up instead of reading the GETs one by one and interning the stack again.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/pickle/value.h"

namespace snapscope::pickle {

class MemoValues;

class GetRunCache {
 public:
  static constexpr size_t kMaxRunBytes = 2048;  // longer runs are read every time

  struct Hit {
    Value reduced;
    size_t length = 0;  // the run's bytes
  };
  // A run's bytes are its GETs and the APPENDS after them: the APPENDS keeps a run from
  // matching the start of a longer one.

  GetRunCache();

  // Forgets everything unless `memo` is the memo the cache was filled from, at the same base,
  // with no entry overwritten since.
  void check(const MemoValues* memo, uint64_t memo_base);
  static uint64_t hash(std::span<const uint8_t> bytes);
  // A run remembered under `key_hash` that `bytes` start with.
  std::optional<Hit> find(uint64_t key_hash, std::span<const uint8_t> bytes) const;
  void add(uint64_t key_hash, std::span<const uint8_t> run, Value reduced);

 private:
  struct Entry {
    uint32_t offset = 0;  // into arena_
    uint32_t length = 0;  // 0: empty
    Value reduced;
  };
  // Runs under one hash: their keys stop at a byte of an early GET's index that reads as
  // APPENDS, and the innermost frames (the allocator's) are the same in many stacks.
  static constexpr size_t kWays = 16;
  void clear();

  std::vector<uint64_t> hashes_;  // kWays per set, the set chosen by the hash; 0: empty
  std::vector<Entry> entries_;    // beside hashes_
  std::vector<uint8_t> next_way_;
  std::vector<uint8_t> arena_;  // the runs' bytes; cleared with the entries when full
  const MemoValues* memo_ = nullptr;
  uint64_t memo_base_ = 0;
  uint64_t overwrites_ = 0;
};

}  // namespace snapscope::pickle
