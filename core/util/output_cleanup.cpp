#include "core/util/output_cleanup.h"

#include <unistd.h>

#include "core/util/signal_safe_paths.h"

namespace snapscope::output_cleanup {
namespace {

SignalSafePaths<16> g_temporaries;

}  // namespace

int add(const char* path) noexcept { return g_temporaries.add(path); }

void remove(int slot) noexcept { g_temporaries.remove(slot); }

void unlink_all() noexcept {
  g_temporaries.take_all([](const char* path) { ::unlink(path); });
}

}  // namespace snapscope::output_cleanup
