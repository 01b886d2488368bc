// Runs the built snapscope-convert as a process inside a test directory and captures its exit
// code, stdout and stderr.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "unit/support/test_store_fixture.h"

namespace snapscope::test {

struct CliResult {
  int exit_code = -1;
  std::string out, err;
};

inline CliResult run_cli(const TempDir& dir, const std::string& args) {
  const std::string command = "cd '" + dir.path().string() +
                              "' && '" SNAPSCOPE_BIN_DIR "/snapscope-convert' " + args + " >'" +
                              (dir / ".stdout").string() + "' 2>'" + (dir / ".stderr").string() + "'";
  const int status = std::system(command.c_str());
  CliResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = read_file(dir / ".stdout");
  result.err = read_file(dir / ".stderr");
  std::filesystem::remove(dir / ".stdout");
  std::filesystem::remove(dir / ".stderr");
  return result;
}

}  // namespace snapscope::test
