// libFuzzer harness: arbitrary SQL through the SQL console's guard (ReadOnlySql) on a generated
// elements.db. Errors are results, not failures; what must hold is that nothing ever changes the
// file or creates one beside it (ATTACH, VACUUM INTO, a journal), whatever the statement.
#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <thread>

#include "core/sql/readonly_sql.h"
#include "fuzz_fixture.h"

using namespace snapscope;
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

// A query may legitimately run forever (a recursive CTE): the console's Cancel stops it. The
// watchdog presses Cancel after 100 ms so such inputs are not reported as hangs.
struct Watchdog {
  std::atomic<bool> cancel{false};
  std::atomic<int64_t> started_ns{0};  // 0: no query running
  std::thread thread{[this] {
    for (;;) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      const int64_t start = started_ns.load();
      if (start != 0 && Clock::now().time_since_epoch().count() - start > 100'000'000) cancel = true;
    }
  }};
  Watchdog() { thread.detach(); }
};

struct DirState {
  size_t files = 0;
  int64_t db_size = 0;
  int64_t db_mtime_ns = 0;
  bool operator==(const DirState&) const = default;
};

DirState dir_state(const fs::path& dir) {
  DirState state;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++state.files;
  struct stat st {};
  if (::stat((dir / "elements.db").c_str(), &st) == 0) {
    state.db_size = st.st_size;
    state.db_mtime_ns = st.st_mtim.tv_sec * 1'000'000'000LL + st.st_mtim.tv_nsec;
  }
  return state;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Watchdog watchdog;
  static const fs::path dir = fuzz::fixture_dir();
  static ReadOnlySql sql((dir / "elements.db").string());
  static const DirState before = dir_state(dir);
  watchdog.cancel = false;
  watchdog.started_ns = Clock::now().time_since_epoch().count();
  (void)sql.run(std::string(fuzz::as_text(data, size)), watchdog.cancel, 64);
  watchdog.started_ns = 0;
  if (!(dir_state(dir) == before)) __builtin_trap();  // the guard let something write
  return 0;
}
