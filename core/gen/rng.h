// Deterministic random numbers for the generator. SplitMix64 plus our own range helpers,
// because std:: distributions differ between standard libraries and seeds must reproduce.
#pragma once

#include <cstdint>

namespace snapscope::gen {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}

  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi] (inclusive).
  uint64_t range(uint64_t lo, uint64_t hi) { return lo + next() % (hi - lo + 1); }
  size_t index(size_t count) { return static_cast<size_t>(next() % count); }
  bool chance(double probability) { return static_cast<double>(next() >> 11) * 0x1.0p-53 < probability; }

 private:
  uint64_t state_;
};

// A seed for an independent stream, derived from a base seed and a label.
inline uint64_t derive_seed(uint64_t seed, uint64_t label) {
  Rng mix(seed ^ (label * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull));
  return mix.next();
}

}  // namespace snapscope::gen
