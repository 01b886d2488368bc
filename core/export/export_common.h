// Pieces the export writers share: a buffered output file and the element sets exports cover.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/live_elements.h"
#include "core/export/export.h"

namespace snapscope {

// Text output through a large buffer; every failure throws std::runtime_error("<path>: ...").
class BufferedFile {
 public:
  explicit BufferedFile(std::string path);
  ~BufferedFile();
  BufferedFile(const BufferedFile&) = delete;
  BufferedFile& operator=(const BufferedFile&) = delete;

  BufferedFile& operator<<(std::string_view text);
  BufferedFile& operator<<(char c);
  BufferedFile& operator<<(uint64_t value);
  BufferedFile& operator<<(int64_t value);
  void close();  // flushes; throws on any write error

 private:
  void flush();
  [[noreturn]] void fail(const char* what) const;

  std::string path_;
  std::FILE* file_ = nullptr;
  std::string buffer_;
};

// Elements whose traced allocation event lies in `range`, in element order, each with its
// allocation stack (the set speedscope-allocated and a ranged allocations-csv cover).
std::vector<LiveElement> allocated_in_range(const Timeline& timeline, EventRange range);

// time_us of an action, or kNoTime when the trace has none.
int64_t action_time(const Timeline& timeline, size_t action);

// The input's file name without directories, for titles.
std::string display_name(const ExportInput& input);

}  // namespace snapscope
