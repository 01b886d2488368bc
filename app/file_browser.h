// File > Open: a small in-app browser (directories, snapshot pickles, converted directories).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace snapscope {

class FileBrowser {
 public:
  void open();  // shows the popup, starting in the last directory
  // Draws the popup if open; returns the chosen path once.
  std::optional<std::string> draw();

 private:
  struct Entry {
    std::string name;
    bool directory = false;
    bool converted = false;  // a directory holding allocations.json: opened, not entered
  };
  void list(const std::filesystem::path& directory);

  bool open_requested_ = false;
  std::filesystem::path directory_;
  std::vector<Entry> entries_;
  std::string error_;
  char typed_path_[1024] = {};
};

}  // namespace snapscope
