#include "core/convert/signal_cleanup.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/store/allocations_json/allocations_json.h"
#include "core/util/output_cleanup.h"
#include "core/util/signal_safe_paths.h"

namespace snapscope::signal_cleanup {
namespace {

// The files a staging directory can hold (see core/convert/convert.cpp).
constexpr const char* kStagedFiles[] = {"elements.db", "elements.db-journal", kAllocationsFileName};

// One per conversion in progress: a viewer converts run A and run B at once.
using StagingDirs = SignalSafePaths<8>;
StagingDirs g_dirs;
char g_program[256] = "snapscope-convert";

void unlink_in_dir(const char* dir, const char* name) {
  char path[StagingDirs::kMaxPath + 64];
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
  g_dirs.take_all([](const char* dir) {
    for (const char* name : kStagedFiles) unlink_in_dir(dir, name);
    ::rmdir(dir);
  });
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

int watch(const std::filesystem::path& staging_dir) { return g_dirs.add(staging_dir.c_str()); }

void unwatch(int slot) { g_dirs.remove(slot); }

}  // namespace snapscope::signal_cleanup
