// Writes a realistic, deterministic torch CUDA memory snapshot pickle of any size, streaming
// (memory stays bounded however many events are written).
#pragma once

#include <cstdint>
#include <iosfwd>

#include "core/gen/gen_options.h"

namespace snapscope::gen {

struct GenResult {
  uint64_t bytes = 0;   // pickle bytes written (before any compression)
  uint64_t events = 0;  // trace events over all devices
  uint64_t segments = 0;
};

GenResult write_snapshot(const GenOptions& options, std::ostream& out);

// The event count that makes a snapshot about options.target_bytes large.
uint64_t events_for_target_bytes(const GenOptions& options);

}  // namespace snapscope::gen
