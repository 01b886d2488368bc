// What `--version` prints for every Snapscope program: the project's version (from CMake) and the
// formats of what the converter writes, so a user can tell whether a converted directory made by
// one install opens in another.
#pragma once

#include <string>
#include <string_view>

namespace snapscope {

// The project version, e.g. "0.1.0".
std::string_view project_version();

// "<program> <version> (elements.db format N, allocations.json format M)\n".
std::string version_text(std::string_view program);

// True when the command line is exactly `program --version` (one argument): each main() answers it
// before its own parsing, so every program treats the flag alike.
bool asks_for_version(int argc, const char* const* argv);

}  // namespace snapscope
