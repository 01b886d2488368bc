// GuardedMapping (core/util/guarded_mapping.h): a mapped file that shrinks under its reader
// reads as zeros past its new end and says so, instead of killing the process with SIGBUS.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/util/guarded_mapping.h"

using namespace snapscope;
namespace fs = std::filesystem;

namespace {

class MappedTempFile {
 public:
  explicit MappedTempFile(const std::string& bytes)
      : path_(fs::temp_directory_path() / ("snapscope-mapping-" + std::to_string(::getpid()) + ".bin")) {
    std::ofstream(path_, std::ios::binary) << bytes;
    fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  }
  ~MappedTempFile() {
    ::close(fd_);
    fs::remove(path_);
  }
  int fd() const { return fd_; }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
  int fd_ = -1;
};

std::string pattern(size_t bytes) {
  std::string text(bytes, '\0');
  for (size_t i = 0; i < bytes; ++i) text[i] = static_cast<char>('a' + i % 26);
  return text;
}

}  // namespace

TEST_CASE("a guarded mapping reads the file in place, also after releasing pages behind it") {
  const std::string bytes = pattern(3 << 20);
  MappedTempFile file(bytes);
  GuardedMapping mapping(file.fd(), bytes.size());
  REQUIRE(mapping.valid());
  CHECK(mapping.size() == bytes.size());
  CHECK(std::string(reinterpret_cast<const char*>(mapping.data()), bytes.size()) == bytes);
  mapping.release_before(2 << 20);
  CHECK(mapping.data()[100] == bytes[100]);  // mapped again from the page cache
  CHECK(std::string(reinterpret_cast<const char*>(mapping.data()), bytes.size()) == bytes);
  CHECK_FALSE(mapping.shrank());
}

TEST_CASE("a guarded mapping of a file that shrank reads zeros past its end, and says it shrank") {
  const std::string bytes = pattern(1 << 20);
  MappedTempFile file(bytes);
  GuardedMapping mapping(file.fd(), bytes.size());
  REQUIRE(mapping.valid());
  CHECK(mapping.data()[0] == 'a');
  fs::resize_file(file.path(), 4096);
  CHECK_FALSE(mapping.shrank());
  CHECK(mapping.data()[4095] == bytes[4095]);  // still the file's
  CHECK(mapping.data()[500000] == 0);          // SIGBUS without the guard
  CHECK(mapping.data()[bytes.size() - 1] == 0);
  CHECK(mapping.shrank());

  // Another mapping, of an intact file, is not concerned.
  const std::string other = pattern(8192);
  MappedTempFile intact(other);
  GuardedMapping second(intact.fd(), other.size());
  REQUIRE(second.valid());
  CHECK(second.data()[8000] == other[8000]);
  CHECK_FALSE(second.shrank());
}

TEST_CASE("an empty file has no mapping: it is read with read(2)") {
  MappedTempFile file("");
  GuardedMapping mapping(file.fd(), 0);
  CHECK_FALSE(mapping.valid());
  CHECK_FALSE(mapping.shrank());
}
