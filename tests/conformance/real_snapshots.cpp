#include "real_snapshots.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>

namespace fs = std::filesystem;

namespace snapscope::conformance {

fs::path snapshot_dir() {
  const char* dir = std::getenv("SNAPSCOPE_SNAPSHOT_DIR");
  REQUIRE_MESSAGE(dir != nullptr, "SNAPSCOPE_SNAPSHOT_DIR is not set");
  REQUIRE_MESSAGE(fs::is_directory(dir), "SNAPSCOPE_SNAPSHOT_DIR is not a directory: " << std::string(dir));
  return dir;
}

std::vector<fs::path> snapshot_pickles() {
  const fs::path dir = snapshot_dir();
  std::vector<fs::path> pickles;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".pickle") pickles.push_back(entry.path());
  }
  std::sort(pickles.begin(), pickles.end());
  REQUIRE_MESSAGE(!pickles.empty(), "no *.pickle in " << dir.string());
  return pickles;
}

nlohmann::json load_reference(const fs::path& pickle) {
  fs::path path = pickle;
  path.replace_extension(".memviz.json");
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "missing reference layout " << path.string());
  nlohmann::json reference = nlohmann::json::parse(in);
  REQUIRE(reference.at("format") == "memviz-ref/1");
  return reference;
}

}  // namespace snapscope::conformance
