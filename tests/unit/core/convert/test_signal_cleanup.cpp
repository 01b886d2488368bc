// core/convert/signal_cleanup: an interrupted process leaves no staging directory behind, also
// when several conversions are under way at once (a viewer converting run A and run B).
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "core/convert/signal_cleanup.h"
#include "core/convert/staging_dir.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;
using snapscope::test::TempDir;

namespace {

// In a child process: `count` conversions' staging directories (each holding an elements.db),
// then SIGTERM. The child's exit status.
int interrupt_with_staging_directories(const TempDir& dir, int count) {
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::close(STDERR_FILENO);
    signal_cleanup::install("test");
    std::vector<std::unique_ptr<StagingDirectory>> staging;
    for (int i = 0; i < count; ++i) {
      staging.push_back(std::make_unique<StagingDirectory>(dir / ("out" + std::to_string(i)), false));
      std::ofstream(staging.back()->path() / "elements.db") << "partial";
    }
    ::raise(SIGTERM);
    ::_exit(0);  // not reached
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  return status;
}

}  // namespace

TEST_CASE("signal cleanup: SIGTERM removes every staging directory under way, not only the last") {
  TempDir dir;
  const int status = interrupt_with_staging_directories(dir, 3);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGTERM);
  CHECK(dir.entries().empty());
}

TEST_CASE("signal cleanup: a finished conversion's slot is free for the next") {
  TempDir dir;
  for (int i = 0; i < 20; ++i) {  // more than there are slots
    StagingDirectory staging(dir / "out", false);
  }
  const int status = interrupt_with_staging_directories(dir, 1);
  CHECK(WTERMSIG(status) == SIGTERM);
  CHECK(dir.entries().empty());
}
