// A file mapped read-only, for reading it in place instead of copying it out with read(2) (a
// tenth of a 1 GB pickle's read was that copy). A mapped file that another process truncates
// raises SIGBUS at the next touch of a page past its new end, which would kill the viewer. The
// guard's SIGBUS handler instead maps zero pages over the rest of the mapping and notes that the
// file shrank: the reader goes on over zeros, and whoever holds the mapping asks shrank() before
// trusting what it read. Faults outside every guarded mapping go to the handler that was there
// before (the default one: the process dies as it would have).
#pragma once

#include <cstddef>
#include <cstdint>

namespace snapscope {

class GuardedMapping {
 public:
  // Maps the first `size` bytes of the open file `fd` (the caller keeps it open, or not: the
  // mapping holds its own reference). valid() is false where the file cannot be mapped (a size
  // of 0, a special file, too many guarded mappings at once): read it with read(2) instead.
  GuardedMapping(int fd, uint64_t size);
  ~GuardedMapping();
  GuardedMapping(const GuardedMapping&) = delete;
  GuardedMapping& operator=(const GuardedMapping&) = delete;

  bool valid() const { return data_ != nullptr; }
  const uint8_t* data() const { return data_; }
  uint64_t size() const { return size_; }

  // True once a read past the file's end (it shrank) found zeros where its bytes were.
  bool shrank() const;

  // Lets the kernel take back the mapped pages wholly before `offset` (they stay in the page
  // cache): a sequential reader keeps its resident memory to what it reads now. Pages touched
  // again are mapped again.
  void release_before(uint64_t offset);

 private:
  const uint8_t* data_ = nullptr;
  uint64_t size_ = 0;
  size_t mapped_bytes_ = 0;  // size_ in whole pages
  size_t released_bytes_ = 0;
  int slot_ = -1;  // in the handler's table
};

}  // namespace snapscope
