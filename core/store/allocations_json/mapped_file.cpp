#include "core/store/allocations_json/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/snapshot/snapshot_reader.h"
#include "core/util/regular_file.h"

namespace snapscope {

MappedFile::MappedFile(const std::string& path) {
  std::string error;
  const int fd = open_regular_file(path, error);  // a FIFO is refused, never waited on
  if (fd < 0) throw InputError(path + ": " + error);
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    ::close(fd);
    throw InputError(path + ": " + std::strerror(errno));
  }
  size_ = static_cast<size_t>(info.st_size);
  if (size_ > 0) {
    data_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (data_ == MAP_FAILED) data_ = nullptr;
  }
  ::close(fd);
  if (size_ > 0 && !data_) throw InputError(path + ": cannot map file");
  if (data_) ::madvise(data_, size_, MADV_SEQUENTIAL);  // read once, front to back
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(data_, size_);
}

}  // namespace snapscope
