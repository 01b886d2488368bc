// The real-snapshot directory of the conformance suite ($SNAPSCOPE_SNAPSHOT_DIR). A missing,
// non-directory or pickle-less directory fails the calling test loudly: CI must never skip.
#pragma once

#include <filesystem>
#include <vector>

#include <nlohmann/json.hpp>

namespace snapscope::conformance {

std::filesystem::path snapshot_dir();
// Every *.pickle in snapshot_dir(), sorted by name; at least one.
std::vector<std::filesystem::path> snapshot_pickles();
// memory_viz's layout of a pickle: <name>.memviz.json beside it (format memviz-ref/1).
nlohmann::json load_reference(const std::filesystem::path& pickle);

}  // namespace snapscope::conformance
