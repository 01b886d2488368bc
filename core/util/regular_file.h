// Inputs are read only from regular files, and checking that never blocks: open(2) of a FIFO
// with no writer waits forever, so the file is opened with O_NONBLOCK and fstat'ed first. A FIFO,
// device, socket or directory is refused with a reason ("not a regular file (a FIFO)").
#pragma once

#include <cstdint>
#include <string>

namespace snapscope {

// A read-only descriptor (blocking again) of the regular file at `path`, or -1 with `error` set
// ("not a regular file (a FIFO)", or strerror of the failed open).
int open_regular_file(const std::string& path, std::string& error);

// The same check alone: empty when `path` is a regular file, else the reason.
std::string regular_file_problem(const std::string& path);

// The whole regular file, at most `max_bytes`; on failure empty, with `error` set ("larger than
// N bytes", or as open_regular_file).
std::string read_regular_file(const std::string& path, uint64_t max_bytes, std::string& error);

}  // namespace snapscope
