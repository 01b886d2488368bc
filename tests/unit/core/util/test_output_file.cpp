// OutputFile: whole or not at all, a unique temporary beside the target, never replacing a
// device, FIFO or symlink, permissions kept, interrupted writes cleaned up.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/convert/signal_cleanup.h"
#include "core/util/output_file.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;
using snapscope::test::TempDir;
namespace fs = std::filesystem;

namespace {

mode_t mode_of(const fs::path& path) {
  struct stat status {};
  REQUIRE(::lstat(path.c_str(), &status) == 0);
  return status.st_mode;
}

std::string error_of(const std::string& path) {
  try {
    write_output_file(path, "x");
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("output file: appears whole at commit, nothing is left when it is not committed") {
  TempDir dir;
  const std::string path = (dir / "a.csv").string();
  {
    OutputFile file(path);
    file.write("half");
    CHECK(dir.entries().size() == 1);  // the temporary, not a.csv
    CHECK(!fs::exists(path));
  }
  CHECK(dir.entries().empty());
  write_output_file(path, "whole\n");
  CHECK(test::read_file(path) == "whole\n");
  CHECK(dir.entries() == std::vector<std::string>{"a.csv"});
}

TEST_CASE("output file: an existing file keeps its permissions, a symlink its link") {
  TempDir dir;
  const fs::path target = dir / "t.csv";
  test::write_file(target, "old");
  ::chmod(target.c_str(), 0640);
  write_output_file(target.string(), "new");
  CHECK((mode_of(target) & 07777) == 0640);
  CHECK(test::read_file(target) == "new");

  fs::create_symlink("t.csv", dir / "link.csv");
  write_output_file((dir / "link.csv").string(), "through the link");
  CHECK(S_ISLNK(mode_of(dir / "link.csv")));
  CHECK(test::read_file(target) == "through the link");
}

TEST_CASE("output file: a character device or FIFO is written straight through, never replaced") {
  TempDir dir;
  const fs::path device = dir / "null";
  if (::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) {  // root only
    write_output_file(device.string(), "gone");
    CHECK(S_ISCHR(mode_of(device)));
  }
  const fs::path fifo = dir / "pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string received;
  std::thread reader([&] {
    const int fd = ::open(fifo.c_str(), O_RDONLY);
    char buffer[64];
    for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;)
      received.append(buffer, static_cast<size_t>(n));
    ::close(fd);
  });
  write_output_file(fifo.string(), "through the pipe");
  reader.join();
  CHECK(received == "through the pipe");
  CHECK(S_ISFIFO(mode_of(fifo)));
  std::vector<std::string> expected{"pipe"};
  if (fs::exists(device)) expected.insert(expected.begin(), "null");
  CHECK(dir.entries() == expected);
}

TEST_CASE("output file: refuses a directory, a missing directory, a dangling link and a link loop") {
  TempDir dir;
  fs::create_directory(dir / "d");
  CHECK(error_of((dir / "d").string()) == (dir / "d").string() + ": is a directory");
  CHECK(error_of((dir / "no/x").string()) == (dir / "no/x").string() + ": no such directory");
  fs::create_symlink("nowhere", dir / "dangling");
  CHECK(error_of((dir / "dangling").string()).ends_with(": a symbolic link to nothing"));
  fs::create_symlink("loop", dir / "loop");
  CHECK(error_of((dir / "loop").string()).ends_with(": too many levels of symbolic links"));
  CHECK(S_ISLNK(mode_of(dir / "dangling")));
}

TEST_CASE("output file: a hard-linked file is refused before anything is written, both links intact") {
  TempDir dir;
  const fs::path target = dir / "t.csv";
  test::write_file(target, "shared");
  fs::create_hard_link(target, dir / "other.csv");
  for (const fs::path& path : {target, dir / "other.csv"}) {
    CHECK(error_of(path.string()) ==
          path.string() +
              ": has 2 hard links; writing it would separate them (remove it or choose another name)");
  }
  CHECK(fs::hard_link_count(target) == 2);
  CHECK(test::read_file(dir / "other.csv") == "shared");
  CHECK(dir.entries() == std::vector<std::string>{"other.csv", "t.csv"});
}

TEST_CASE("output file: two writers of one path both succeed") {
  TempDir dir;
  const std::string path = (dir / "same.csv").string();
  OutputFile first(path);
  OutputFile second(path);
  first.write("first");
  second.write("second");
  first.commit();
  second.commit();
  CHECK(test::read_file(path) == "second");
  CHECK(dir.entries() == std::vector<std::string>{"same.csv"});
}

TEST_CASE("output file: a full disk is an error, never a short file") {
  TempDir dir;
  if (!fs::exists("/dev/full")) return;
  fs::create_symlink("/dev/full", dir / "full.png");  // ENOSPC on every write, as a full disk
  std::string error;
  try {
    write_output_file((dir / "full.png").string(), std::string(1 << 16, 'x'));
  } catch (const std::runtime_error& failure) {
    error = failure.what();
  }
  CHECK(error == (dir / "full.png").string() + ": write failed: No space left on device");
  CHECK(fs::is_symlink(dir / "full.png"));
}

TEST_CASE("output file: SIGTERM while writing removes the temporary") {
  TempDir dir;
  const std::string path = (dir / "big.json").string();
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::close(STDERR_FILENO);
    signal_cleanup::install("test");
    OutputFile file(path);
    file.write("partial");
    ::raise(SIGTERM);
    ::_exit(0);  // not reached
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGTERM);
  CHECK(dir.entries().empty());
}
