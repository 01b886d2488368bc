#include "core/convert/signal_cleanup.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

#include "core/store/allocations_json/allocations_json.h"
#include "core/util/output_cleanup.h"

namespace snapscope::signal_cleanup {
namespace {

constexpr size_t kMaxPath = 4096;
// The files a staging directory can hold (see core/convert/convert.cpp).
constexpr const char* kStagedFiles[] = {"elements.db", "elements.db-journal", kAllocationsFileName};

char g_dir[kMaxPath];
char g_program[256] = "snapscope-convert";
std::atomic<bool> g_watching{false};

void unlink_in_dir(const char* name) {
  char path[kMaxPath + 64];
  const size_t dir_length = std::strlen(g_dir);
  const size_t name_length = std::strlen(name);
  if (dir_length + 1 + name_length + 1 > sizeof path) return;
  std::memcpy(path, g_dir, dir_length);
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
  if (g_watching.exchange(false)) {
    for (const char* name : kStagedFiles) unlink_in_dir(name);
    ::rmdir(g_dir);
  }
  output_cleanup::unlink_all();  // an export's or rank summary's temporary
  say_interrupted(signal_number);
  // Die of the same signal so the parent sees the usual status.
  ::signal(signal_number, SIG_DFL);
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

void watch(const std::filesystem::path& staging_dir) {
  const std::string path = staging_dir.string();
  if (path.size() >= kMaxPath) return;
  g_watching = false;
  std::memcpy(g_dir, path.c_str(), path.size() + 1);
  g_watching = true;
}

void unwatch() { g_watching = false; }

}  // namespace snapscope::signal_cleanup
