#include "core/store/version/version.h"

#include "core/store/allocations_json/allocations_json.h"
#include "core/store/elements_db/elements_db.h"

#ifndef SNAPSCOPE_VERSION
#error "SNAPSCOPE_VERSION is set by core/CMakeLists.txt from the project's version"
#endif

namespace snapscope {

std::string_view project_version() { return SNAPSCOPE_VERSION; }

std::string version_text(std::string_view program) {
  return std::string(program) + " " + std::string(project_version()) + " (elements.db format " +
         std::to_string(kElementsDbVersion) + ", allocations.json format " +
         std::to_string(kAllocationsJsonVersion) + ")\n";
}

bool asks_for_version(int argc, const char* const* argv) {
  return argc == 2 && std::string_view(argv[1]) == "--version";
}

}  // namespace snapscope
