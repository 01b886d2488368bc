#include "core/view/recent_files.h"

#include <algorithm>
#include <fstream>
#include <system_error>

namespace snapscope {

RecentFiles::RecentFiles(std::filesystem::path storage, size_t capacity)
    : storage_(std::move(storage)), capacity_(capacity) {}

void RecentFiles::load() {
  entries_.clear();
  std::ifstream in(storage_);
  std::string line;
  while (entries_.size() < capacity_ && std::getline(in, line)) {
    if (!line.empty() && std::find(entries_.begin(), entries_.end(), line) == entries_.end()) {
      entries_.push_back(line);
    }
  }
}

void RecentFiles::save() const {
  std::error_code ignored;
  std::filesystem::create_directories(storage_.parent_path(), ignored);
  // Write a sibling file and rename it so a crash never leaves a half-written list.
  const std::filesystem::path temporary = storage_.string() + ".tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    for (const std::string& entry : entries_) out << entry << '\n';
    if (!out) return;
  }
  std::filesystem::rename(temporary, storage_, ignored);
}

// Absolute, so an entry opened as "assets/demo.pickle" still opens from another directory.
std::string absolute_path(const std::string& path) {
  std::error_code error;
  const std::filesystem::path absolute = std::filesystem::absolute(path, error);
  return error ? path : absolute.lexically_normal().string();
}

void RecentFiles::add(const std::string& path) {
  const std::string absolute = absolute_path(path);
  remove(absolute);
  entries_.insert(entries_.begin(), absolute);
  if (entries_.size() > capacity_) entries_.resize(capacity_);
}

void RecentFiles::remove(const std::string& path) {
  entries_.erase(std::remove(entries_.begin(), entries_.end(), path), entries_.end());
}

}  // namespace snapscope
