// The File > Open Recent list: most recent first, no duplicates, bounded, persisted as one
// path per line so that a hand-edited or truncated file still loads.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace snapscope {

// `path` made absolute against the current directory (lexically normal); as given if it cannot be.
std::string absolute_path(const std::string& path);

class RecentFiles {
 public:
  explicit RecentFiles(std::filesystem::path storage, size_t capacity = 12);

  void load();        // a missing or unreadable file means an empty list
  void save() const;  // creates the directory; failures are ignored (the list is a convenience)
  void add(const std::string& path);  // made absolute, then moved to the front
  void remove(const std::string& path);
  const std::vector<std::string>& entries() const { return entries_; }

 private:
  std::filesystem::path storage_;
  size_t capacity_;
  std::vector<std::string> entries_;
};

}  // namespace snapscope
