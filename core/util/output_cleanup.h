// The temporaries being written right now, for a signal handler to remove (async-signal-safe).
// OutputFile registers each temporary while it is open; signal_cleanup (core/convert) calls
// unlink_all() when the process is interrupted.
#pragma once

namespace snapscope::output_cleanup {

int add(const char* path) noexcept;  // a slot, or -1 when all are taken (then nothing is removed)
void remove(int slot) noexcept;
void unlink_all() noexcept;  // async-signal-safe

}  // namespace snapscope::output_cleanup
