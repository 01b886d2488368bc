// memory_viz's event list lines: "alloc          b7f3a00000         2.0MiB (2097152 bytes) (stream 0)"
// and "OOM (requested 1.0GiB (...), Device has 512.0MiB (...) memory free)".
#pragma once

#include <cstdint>
#include <string>

#include "core/allocator/allocator_state.h"

namespace snapscope {

// memory_viz's formatSize: one decimal, binary unit, then the exact count: "1.5MiB (1572864 bytes)".
std::string memviz_size(uint64_t bytes);
// "b7f3a00000" for blocks, "s7f3a00000" for segment events (memory_viz without the _version).
std::string memviz_address(Action action, uint64_t addr);
// One line; `stream_name` is memory_viz's renumbered stream.
std::string format_event_line(const AllocatorEvent& event, uint64_t stream_name);

}  // namespace snapscope
