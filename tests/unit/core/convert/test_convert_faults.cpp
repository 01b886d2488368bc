// Faults during conversion, with snapscope-convert as a real process: a file-size limit (what a
// full disk looks like to the writer), SIGINT/SIGTERM mid-conversion, and the input file
// changing size while it is read. Each must give one line on stderr, a non-zero status, no
// staging directory left behind, and an existing OUTDIR intact when --force was given.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "core/util/byte_source.h"
#include "unit/support/generated_snapshot.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;
using snapscope::test::TempDir;
namespace fs = std::filesystem;

namespace {

constexpr rlim_t kNoLimit = RLIM_INFINITY;

// snapscope-convert ARGS in `dir`, stderr to dir/.stderr; `file_size_limit` bytes per file.
pid_t spawn_convert(const TempDir& dir, const std::vector<std::string>& args, rlim_t file_size_limit) {
  std::vector<std::string> words = {SNAPSCOPE_BIN_DIR "/snapscope-convert"};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  const std::string dir_path = dir.path().string();
  const std::string err_path = (dir / ".stderr").string();
  const pid_t pid = ::fork();
  if (pid == 0) {  // only async-signal-safe calls until exec
    const rlimit limit{file_size_limit, file_size_limit};
    if (::chdir(dir_path.c_str()) != 0 || ::setrlimit(RLIMIT_FSIZE, &limit) != 0) ::_exit(127);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int null = ::open("/dev/null", O_WRONLY);
    if (err < 0 || null < 0 || ::dup2(err, STDERR_FILENO) < 0 || ::dup2(null, STDOUT_FILENO) < 0)
      ::_exit(127);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return pid;
}

struct Finished {
  int status = 0;
  std::string err;
};

Finished wait_for(const TempDir& dir, pid_t pid) {
  Finished finished;
  ::waitpid(pid, &finished.status, 0);
  finished.err = test::read_file(dir / ".stderr");
  fs::remove(dir / ".stderr");
  return finished;
}

size_t line_count(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

void write_generated(const fs::path& path, uint64_t events) {
  gen::GenOptions options;
  options.events = events;
  test::write_generated(path, options);
}

bool has_staging_dir(const TempDir& dir) {
  for (const std::string& name : dir.entries()) {
    if (name.find(".tmp-") != std::string::npos) return true;
  }
  return false;
}

// An earlier conversion in dir/out, for --force tests; returns its allocations.json.
std::string make_existing_output(const TempDir& dir) {
  test::write_file(dir / "small.pickle", test::pickle_bytes(test::standard_fixture()));
  const Finished done = wait_for(dir, spawn_convert(dir, {"small.pickle", "-o", "out"}, kNoLimit));
  REQUIRE(WIFEXITED(done.status));
  REQUIRE(WEXITSTATUS(done.status) == 0);
  fs::remove(dir / "small.pickle");
  return test::read_file(dir / "out" / "allocations.json.zst");
}

}  // namespace

TEST_CASE("faults: a file-size limit while writing is one line, exit 1, nothing left, OUTDIR intact") {
  TempDir dir;
  const std::string before = make_existing_output(dir);
  write_generated(dir / "in.pickle", 20'000);
  for (const bool force : {false, true}) {
    CAPTURE(force);
    std::vector<std::string> args = {"in.pickle", "-o", force ? "out" : "fresh"};
    if (force) args.push_back("--force");
    const Finished done = wait_for(dir, spawn_convert(dir, args, 256 * 1024));
    REQUIRE(WIFEXITED(done.status));
    CHECK(WEXITSTATUS(done.status) == 1);
    // The error names OUTDIR (the staging directory it was written in is gone by then).
    CHECK(done.err.starts_with(std::string("snapscope-convert: ") + (force ? "out/" : "fresh/")));
    CHECK(done.err.find(".tmp-") == std::string::npos);
    CHECK(line_count(done.err) == 1);
    CHECK(dir.entries() == std::vector<std::string>{"in.pickle", "out"});
    CHECK(test::read_file(dir / "out" / "allocations.json.zst") == before);
  }
}

TEST_CASE("faults: SIGINT / SIGTERM mid-conversion remove the staging directory and say so") {
  TempDir dir;
  const std::string before = make_existing_output(dir);
  write_generated(dir / "big.pickle", 400'000);
  for (const int signal_number : {SIGINT, SIGTERM}) {
    CAPTURE(signal_number);
    const pid_t pid = spawn_convert(dir, {"big.pickle", "-o", "out", "--force"}, kNoLimit);
    // Signal as soon as the conversion has started writing its staging directory.
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!has_staging_dir(dir) && std::chrono::steady_clock::now() < give_up) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    REQUIRE(has_staging_dir(dir));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ::kill(pid, signal_number);
    const Finished done = wait_for(dir, pid);
    REQUIRE(WIFSIGNALED(done.status));
    CHECK(WTERMSIG(done.status) == signal_number);
    CHECK(done.err == "snapscope-convert: interrupted by " +
                          std::string(signal_number == SIGINT ? "SIGINT" : "SIGTERM") +
                          "; nothing written\n");
    CHECK(dir.entries() == std::vector<std::string>{"big.pickle", "out"});
    CHECK(test::read_file(dir / "out" / "allocations.json.zst") == before);
  }
}

TEST_CASE("faults: an input file that shrinks or grows while it is read is an error") {
  TempDir dir;
  const fs::path path = dir / "changing.pickle";
  test::write_file(path, std::string(1 << 20, 'x'));
  std::vector<uint8_t> buffer(4096);
  {
    FileSource source(path.string());
    CHECK(source.read(buffer) == buffer.size());
    fs::resize_file(path, 8192);
    CHECK(source.read(buffer) == buffer.size());
    CHECK_THROWS_WITH_AS(source.read(buffer), "the file shrank while it was being read", SourceError);
  }
  {
    test::write_file(path, std::string(4096, 'x'));
    FileSource source(path.string());
    std::ofstream(path, std::ios::app) << std::string(4096, 'y');
    CHECK(source.read(buffer) == buffer.size());
    CHECK_THROWS_WITH_AS(source.read(buffer), "the file grew while it was being read", SourceError);
  }
}

// A 1 MB tmpfs at `dir`, unmounted at scope exit; mounted() is false without the right to mount.
class SmallTmpfs {
 public:
  explicit SmallTmpfs(const fs::path& dir) : dir_(dir) {
    fs::create_directories(dir);
    mounted_ =
        std::system(("mount -t tmpfs -o size=1m tmpfs '" + dir.string() + "' 2>/dev/null").c_str()) == 0;
  }
  ~SmallTmpfs() {
    if (mounted_) mounted_ = std::system(("umount '" + dir_.string() + "'").c_str()) != 0;
  }
  SmallTmpfs(const SmallTmpfs&) = delete;
  SmallTmpfs& operator=(const SmallTmpfs&) = delete;
  bool mounted() const { return mounted_; }
  bool make_read_only() const {
    return std::system(("mount -o remount,ro '" + dir_.string() + "'").c_str()) == 0;
  }

 private:
  fs::path dir_;
  bool mounted_ = false;
};

// Needs the right to mount (root in CI's container); elsewhere it says so and checks nothing.
TEST_CASE("faults: a really full disk (1 MB tmpfs) and a read-only output filesystem") {
  TempDir dir;
  const fs::path mnt = dir / "mnt";
  const SmallTmpfs tmpfs(mnt);
  if (!tmpfs.mounted()) {
    MESSAGE("skipped: no permission to mount a tmpfs");
    return;
  }
  write_generated(dir / "in.pickle", 20'000);
  const Finished full = wait_for(dir, spawn_convert(dir, {"in.pickle", "-o", "mnt/out"}, kNoLimit));
  REQUIRE(WIFEXITED(full.status));
  CHECK(WEXITSTATUS(full.status) == 1);
  // elements.db and the layout file are written at once: whichever finds the disk full first is
  // the one the error names (SQLite's part of elements.db, or the pages written beside it).
  CAPTURE(full.err);
  CHECK((full.err.find("elements.db") != std::string::npos &&
         (full.err.find("database or disk is full") != std::string::npos ||
          full.err.find("No space left on device") != std::string::npos)) !=
        (full.err.find("allocations.json.zst: write failed: No space left on device") != std::string::npos));
  CHECK(full.err.starts_with("snapscope-convert: mnt/out/"));
  CHECK(line_count(full.err) == 1);
  CHECK(fs::is_empty(mnt));

  test::write_file(dir / "small.pickle", test::pickle_bytes(test::standard_fixture()));
  const Finished first = wait_for(dir, spawn_convert(dir, {"small.pickle", "-o", "mnt/out"}, kNoLimit));
  REQUIRE(WEXITSTATUS(first.status) == 0);
  const std::string before = test::read_file(mnt / "out" / "allocations.json.zst");
  REQUIRE(tmpfs.make_read_only());
  const Finished read_only =
      wait_for(dir, spawn_convert(dir, {"small.pickle", "-o", "mnt/out", "--force"}, kNoLimit));
  REQUIRE(WIFEXITED(read_only.status));
  CHECK(WEXITSTATUS(read_only.status) == 1);
  CHECK(read_only.err ==
        "snapscope-convert: mnt/out: cannot create temporary directory: Read-only file system\n");
  CHECK(test::read_file(mnt / "out" / "allocations.json.zst") == before);
}
