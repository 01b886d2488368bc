#include "core/convert/signal_cleanup.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

namespace snapscope::signal_cleanup {
namespace {

constexpr size_t kMaxPath = 4096;
// The files a staging directory can hold (see core/convert/convert.cpp).
constexpr const char* kStagedFiles[] = {"elements.db", "elements.db-journal", "allocations.json"};

char g_dir[kMaxPath];
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

void on_signal(int signal_number) {
  if (g_watching.exchange(false)) {
    for (const char* name : kStagedFiles) unlink_in_dir(name);
    ::rmdir(g_dir);
  }
  // Die of the same signal so the parent sees the usual status.
  ::signal(signal_number, SIG_DFL);
  ::raise(signal_number);
}

}  // namespace

void install() {
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
