// The one way Snapscope writes a file the user names (exports, rank summaries, PNGs): whole or
// not at all, and never replacing what is not a regular file.
//
// - A regular file, or nothing, at the path: the bytes go to a unique temporary beside it
//   (O_CREAT|O_EXCL|O_NOFOLLOW, "<dir>/.<name>.XXXXXX.partial") that commit() renames over the
//   path; an existing file's permission bits are kept. Two writers of one path both succeed
//   (the last rename wins). A symlink is followed: the file it names is replaced, the link kept.
//   A file with more than one hard link is refused (a rename would separate the links).
// - A character device, FIFO or socket the user names (-o /dev/stdout, -o /dev/null, a named
//   pipe): written straight through, never replaced. "-" and /dev/stdout are standard output.
// - Anything else (a directory, a missing directory, a symlink loop): std::runtime_error
//   "<path>: <what>", before anything is written.
// The temporary is removed by the destructor unless committed, and by SIGINT / SIGTERM / SIGHUP
// (signal_cleanup in core/convert unlinks every file registered in output_cleanup).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace snapscope {

class OutputFile {
 public:
  explicit OutputFile(std::string path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  int fd() const { return fd_; }
  const std::string& path() const { return path_; }  // as given, for messages
  bool straight_through() const { return temporary_.empty(); }
  void write(std::string_view bytes);  // all of it, or throws "<path>: write failed: <reason>"
  void commit();                       // closes (and renames); throws on any error
  void abandon() noexcept;             // closes and removes the temporary

 private:
  void open_temporary(const std::string& target, bool keep_mode, mode_t mode);

  std::string path_;
  std::string target_;     // the file the rename replaces (a symlink resolved)
  std::string temporary_;  // empty when written straight through
  int fd_ = -1;
  bool owns_fd_ = true;  // false for "-"
  int cleanup_slot_ = -1;
};

enum class OutputKind : uint8_t { Replace, StraightThrough };
// What writing `path` would do, checked before any work (a missing directory, a directory at
// the path): throws as OutputFile's constructor would.
OutputKind check_output_path(const std::string& path);

// Writes all of `bytes` to `fd`, retrying short writes; throws "<path>: write failed: <reason>".
void write_all(int fd, std::string_view bytes, const std::string& path);

// Writes `bytes` to `path` through an OutputFile.
void write_output_file(const std::string& path, std::string_view bytes);

}  // namespace snapscope
