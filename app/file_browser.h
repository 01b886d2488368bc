// File > Open: a small in-app browser (directories, snapshot pickles, converted directories).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace snapscope {

class FileBrowser {
 public:
  enum class Purpose { Open, Compare };        // what the chosen path is for: the file, or run B
  void open(Purpose purpose = Purpose::Open);  // shows the popup, starting in the last directory
  Purpose purpose() const { return purpose_; }
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
  Purpose purpose_ = Purpose::Open;
  std::filesystem::path directory_;
  std::vector<Entry> entries_;
  std::string error_;
  char typed_path_[1024] = {};
};

}  // namespace snapscope
