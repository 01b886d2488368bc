#include "core/util/output_file.h"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "core/util/output_cleanup.h"

namespace snapscope {
namespace {

constexpr size_t kMaxTemporaryName = 200;  // of the target's name, so ".<name>.XXXXXX.partial" fits NAME_MAX

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw std::runtime_error(path + ": " + what);
}

std::string reason() { return std::strerror(errno); }

// "-" and /dev/stdout are the process's standard output as the shell set it up (a pipe, a
// terminal, or a file opened for appending), never a path to reopen or replace.
bool is_stdout(const std::string& path) { return path == "-" || path == "/dev/stdout"; }

bool written_straight_through(mode_t mode) { return S_ISCHR(mode) || S_ISFIFO(mode) || S_ISSOCK(mode); }

std::string random_suffix() {
  static constexpr char kLetters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  unsigned char bytes[6] = {};
  if (::getrandom(bytes, sizeof bytes, 0) != static_cast<ssize_t>(sizeof bytes)) {
    const auto seed = static_cast<unsigned long>(::getpid()) ^ reinterpret_cast<uintptr_t>(&bytes);
    for (size_t i = 0; i < sizeof bytes; ++i) bytes[i] = static_cast<unsigned char>(seed >> (i * 5));
  }
  std::string suffix;
  for (const unsigned char byte : bytes) suffix += kLetters[byte % (sizeof kLetters - 1)];
  return suffix;
}

// The directory a new file at `path` goes into, and whether it can be written.
void check_directory(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  const std::string directory = parent.empty() ? "." : parent.string();
  struct stat status {};
  if (::stat(directory.c_str(), &status) != 0 || !S_ISDIR(status.st_mode)) fail(path, "no such directory");
  if (::access(directory.c_str(), W_OK) != 0) fail(path, "directory is not writable");
}

std::string resolved_symlink(const std::string& path) {
  std::error_code error;
  const std::filesystem::path target = std::filesystem::canonical(path, error);
  if (error) fail(path, "cannot resolve the symbolic link (" + error.message() + ")");
  return target.string();
}

}  // namespace

void write_all(int fd, std::string_view bytes, const std::string& path) {
  while (!bytes.empty()) {
    const ssize_t written = ::write(fd, bytes.data(), bytes.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) fail(path, "write failed: " + (written == 0 ? std::string("no space") : reason()));
    bytes.remove_prefix(static_cast<size_t>(written));
  }
}

OutputKind check_output_path(const std::string& path) {
  if (is_stdout(path)) return OutputKind::StraightThrough;
  if (path.empty()) fail("(empty)", "no output file named");
  struct stat status {};
  if (::stat(path.c_str(), &status) == 0) {
    if (written_straight_through(status.st_mode)) return OutputKind::StraightThrough;
    if (S_ISDIR(status.st_mode)) fail(path, "is a directory");
    if (!S_ISREG(status.st_mode)) fail(path, "not a regular file, a character device or a FIFO");
    // Renaming over it would silently split the links (the others keep the old bytes), and
    // writing in place would not be whole-or-nothing: refuse, as the user can choose.
    if (status.st_nlink > 1) {
      fail(path, "has " + std::to_string(status.st_nlink) +
                     " hard links; writing it would separate them (remove it or choose another name)");
    }
    check_directory(resolved_symlink(path));
    return OutputKind::Replace;
  }
  if (errno == ELOOP) fail(path, "too many levels of symbolic links");
  if (errno != ENOENT) fail(path, reason());
  struct stat link {};
  if (::lstat(path.c_str(), &link) == 0) fail(path, "a symbolic link to nothing");
  check_directory(path);
  return OutputKind::Replace;
}

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  if (check_output_path(path_) == OutputKind::StraightThrough) {
    if (is_stdout(path_)) {
      fd_ = STDOUT_FILENO;
      owns_fd_ = false;
      return;
    }
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd_ < 0) fail(path_, "cannot open: " + reason());
    return;
  }
  struct stat status {};
  if (::stat(path_.c_str(), &status) == 0) {
    struct stat link {};
    const bool is_link = ::lstat(path_.c_str(), &link) == 0 && S_ISLNK(link.st_mode);
    open_temporary(is_link ? resolved_symlink(path_) : path_, true, status.st_mode & 07777);
  } else {
    open_temporary(path_, false, 0);
  }
}

void OutputFile::open_temporary(const std::string& target, bool keep_mode, mode_t mode) {
  target_ = target;
  const std::filesystem::path as_path(target);
  const std::string directory = as_path.parent_path().empty() ? "." : as_path.parent_path().string();
  const std::string name = as_path.filename().string().substr(0, kMaxTemporaryName);
  for (int attempt = 0; attempt < 100 && fd_ < 0; ++attempt) {
    const std::string candidate = directory + "/." + name + "." + random_suffix() + ".partial";
    fd_ = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd_ >= 0) {
      temporary_ = candidate;
    } else if (errno != EEXIST) {
      fail(path_, "cannot create a temporary file beside it: " + reason());
    }
  }
  if (fd_ < 0) fail(path_, "cannot create a temporary file beside it");
  cleanup_slot_ = output_cleanup::add(temporary_.c_str());
  if (keep_mode && ::fchmod(fd_, mode) != 0) {
    const std::string why = reason();
    abandon();
    fail(path_, "cannot set permissions: " + why);
  }
}

OutputFile::~OutputFile() { abandon(); }

void OutputFile::write(std::string_view bytes) {
  if (fd_ < 0) fail(path_, "write failed: closed");
  write_all(fd_, bytes, path_);
}

void OutputFile::commit() {
  if (fd_ < 0) fail(path_, "write failed: closed");
  const int fd = fd_;
  fd_ = -1;
  if (owns_fd_ && ::close(fd) != 0) {
    const std::string why = reason();
    abandon();
    fail(path_, "write failed: " + why);
  }
  if (temporary_.empty()) return;
  struct stat status {};
  if (::lstat(target_.c_str(), &status) == 0 && !S_ISREG(status.st_mode)) {
    abandon();
    fail(path_, "became something other than a regular file while it was written");
  }
  if (::rename(temporary_.c_str(), target_.c_str()) != 0) {
    const std::string why = reason();
    abandon();
    fail(path_, "cannot write (" + why + ")");
  }
  output_cleanup::remove(cleanup_slot_);
  cleanup_slot_ = -1;
  temporary_.clear();
}

void OutputFile::abandon() noexcept {
  if (fd_ >= 0 && owns_fd_) ::close(fd_);
  fd_ = -1;
  if (!temporary_.empty()) ::unlink(temporary_.c_str());
  output_cleanup::remove(cleanup_slot_);
  cleanup_slot_ = -1;
  temporary_.clear();
}

void write_output_file(const std::string& path, std::string_view bytes) {
  OutputFile file(path);
  file.write(bytes);
  file.commit();
}

}  // namespace snapscope
