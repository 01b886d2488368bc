// A fixed set of paths that threads register and a signal handler acts on: each slot is claimed
// with an atomic, filled, then armed, so the handler (async-signal-safe: atomics and plain reads
// only) sees only complete paths and acts on each at most once. Used for the temporaries of
// output files (output_cleanup) and for conversions' staging directories (core/convert).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstring>

namespace snapscope {

template <int Slots>
class SignalSafePaths {
 public:
  static constexpr size_t kMaxPath = 4096;

  // A slot, or -1 when the path is too long or every slot is taken (then nothing is done for it).
  int add(const char* path) noexcept {
    const size_t length = std::strlen(path);
    if (length >= kMaxPath) return -1;
    for (int i = 0; i < Slots; ++i) {
      bool expected = false;
      if (!slots_[i].taken.compare_exchange_strong(expected, true)) continue;
      std::memcpy(slots_[i].path, path, length + 1);
      slots_[i].armed = true;
      return i;
    }
    return -1;
  }

  void remove(int slot) noexcept {  // -1 does nothing
    if (slot < 0 || slot >= Slots) return;
    slots_[slot].armed = false;
    slots_[slot].taken = false;
  }

  // The signal handler: `act(path)` for each armed path, disarmed first. Async-signal-safe when
  // `act` is.
  template <typename Act>
  void take_all(Act act) noexcept {
    for (Slot& slot : slots_) {
      if (slot.armed.exchange(false)) act(static_cast<const char*>(slot.path));
    }
  }

 private:
  struct Slot {
    std::atomic<bool> taken{false};  // claimed by a writer
    std::atomic<bool> armed{false};  // path is complete and may be acted on
    char path[kMaxPath];
  };
  Slot slots_[Slots];
};

}  // namespace snapscope
