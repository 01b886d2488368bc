// A pickle read in place (FileSource lends a mapping of it) that another process truncates or
// extends during the read: a one-line error, never a crash (SIGBUS) or a snapshot of zeros.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "core/gen/snapshot_generator.h"
#include "core/snapshot/snapshot_reader.h"

using namespace snapscope;
namespace fs = std::filesystem;

namespace {

class GeneratedPickle {
 public:
  GeneratedPickle()
      : path_(fs::temp_directory_path() / ("snapscope-changes-" + std::to_string(::getpid()) + ".pickle")) {
    gen::GenOptions options;
    options.events = 20000;  // a few MB: many pages past the first
    std::ofstream out(path_, std::ios::binary);
    gen::write_snapshot(options, out);
  }
  ~GeneratedPickle() { fs::remove(path_); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// read_snapshot's error with `change` done to the file once the parse has its bytes in place:
// at the first progress report past the gzip sniff's two bytes.
std::string error_when(const fs::path& path, const std::function<void()>& change) {
  ReadOptions options;
  options.threads = 1;
  bool changed = false;
  options.on_progress = [&](const ReadProgress& progress) {
    if (changed || progress.bytes_read <= 2) return;
    change();
    changed = true;
  };
  try {
    read_snapshot(path.string(), options);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a pickle that shrinks while it is read in place is an error naming the file") {
  GeneratedPickle pickle;
  const uint64_t bytes = fs::file_size(pickle.path());
  REQUIRE(bytes > (1 << 20));
  ReadOptions options;
  options.threads = 1;
  CHECK(read_snapshot(pickle.path().string(), options).device_traces.at(0).events.size() > 10000);

  CHECK(error_when(pickle.path(), [&] { fs::resize_file(pickle.path(), 4096); }) ==
        pickle.path().string() + ": the file shrank while it was being read");
}

TEST_CASE("a pickle that grows while it is read in place is an error naming the file") {
  GeneratedPickle pickle;
  CHECK(error_when(pickle.path(), [&] { std::ofstream(pickle.path(), std::ios::app) << "more"; }) ==
        pickle.path().string() + ": the file grew while it was being read");
}
