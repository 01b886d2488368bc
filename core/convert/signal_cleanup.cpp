#include "core/convert/signal_cleanup.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "core/store/allocations_json/allocations_json.h"
#include "core/util/output_cleanup.h"

namespace snapscope::signal_cleanup {
namespace {

constexpr size_t kMaxPath = 4096;
// The files a staging directory can hold (see core/convert/convert.cpp).
constexpr const char* kStagedFiles[] = {"elements.db", "elements.db-journal", kAllocationsFileName};

// One per conversion in progress: a viewer converts run A and run B at once.
constexpr int kDirSlots = 8;

struct DirSlot {
  std::atomic<bool> taken{false};  // claimed by a conversion
  std::atomic<bool> armed{false};  // dir is complete and may be removed
  char dir[kMaxPath];
};

DirSlot g_dirs[kDirSlots];
char g_program[256] = "snapscope-convert";

void unlink_in_dir(const char* dir, const char* name) {
  char path[kMaxPath + 64];
  const size_t dir_length = std::strlen(dir);
  const size_t name_length = std::strlen(name);
  if (dir_length + 1 + name_length + 1 > sizeof path) return;
  std::memcpy(path, dir, dir_length);
  path[dir_length] = '/';
  std::memcpy(path + dir_length + 1, name, name_length + 1);
  ::unlink(path);
}

void append(char* line, size_t& used, size_t capacity, const char* text) {
  const size_t length = std::strlen(text);
  if (used + length >= capacity) return;
  std::memcpy(line + used, text, length);
  used += length;
}

// One line on stderr with write(2) only (async-signal-safe).
void say_interrupted(int signal_number) {
  const char* name = signal_number == SIGINT ? "SIGINT" : signal_number == SIGTERM ? "SIGTERM" : "SIGHUP";
  char line[512];
  size_t used = 0;
  for (const char* part :
       {static_cast<const char*>(g_program), ": interrupted by ", name, "; nothing written\n"}) {
    append(line, used, sizeof line, part);
  }
  [[maybe_unused]] const ssize_t ignored = ::write(STDERR_FILENO, line, used);
}

void on_signal(int signal_number) {
  const int saved_errno = errno;  // the interrupted code's, whatever unlink and write leave there
  for (DirSlot& slot : g_dirs) {
    if (!slot.armed.exchange(false)) continue;
    for (const char* name : kStagedFiles) unlink_in_dir(slot.dir, name);
    ::rmdir(slot.dir);
  }
  output_cleanup::unlink_all();  // an export's or rank summary's temporary
  say_interrupted(signal_number);
  // Die of the same signal so the parent sees the usual status.
  ::signal(signal_number, SIG_DFL);
  errno = saved_errno;
  ::raise(signal_number);
}

}  // namespace

void install(const char* program) {
  std::strncpy(g_program, program, sizeof g_program - 1);
  ::signal(SIGXFSZ, SIG_IGN);
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  for (const int signal_number : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(signal_number, &action, nullptr);
}

int watch(const std::filesystem::path& staging_dir) {
  const std::string path = staging_dir.string();
  if (path.size() >= kMaxPath) return -1;
  for (int i = 0; i < kDirSlots; ++i) {
    bool expected = false;
    if (!g_dirs[i].taken.compare_exchange_strong(expected, true)) continue;
    std::memcpy(g_dirs[i].dir, path.c_str(), path.size() + 1);
    g_dirs[i].armed = true;
    return i;
  }
  return -1;
}

void unwatch(int slot) {
  if (slot < 0 || slot >= kDirSlots) return;
  g_dirs[slot].armed = false;
  g_dirs[slot].taken = false;
}

}  // namespace snapscope::signal_cleanup
