// docs/ARCHITECTURE.md must describe what the code is: its table of core libraries lists every
// library core/CMakeLists.txt declares, in the declared (dependency) order, each with exactly the
// dependencies CMake gives it, and every folder of core/ is a library.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace fs = std::filesystem;
using Library = std::pair<std::string, std::set<std::string>>;  // name, dependencies

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in, path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::set<std::string> words(const std::string& text) {
  std::set<std::string> found;
  std::istringstream in(text);
  for (std::string word; in >> word;) found.insert(word);
  return found;
}

// snapscope_core_library(NAME DEPS a b LIBS x): NAME and {a, b}, in declaration order.
std::vector<Library> declared_libraries(const std::string& cmake) {
  std::vector<Library> libraries;
  static const std::regex call(R"(\nsnapscope_core_library\((\w+)([^)]*)\))");
  for (auto it = std::sregex_iterator(cmake.begin(), cmake.end(), call); it != std::sregex_iterator(); ++it) {
    std::string arguments = (*it)[2];
    const size_t libs = arguments.find(" LIBS ");
    if (libs != std::string::npos) arguments.resize(libs);
    const size_t deps = arguments.find("DEPS ");
    libraries.emplace_back(
        (*it)[1], deps == std::string::npos ? std::set<std::string>{} : words(arguments.substr(deps + 5)));
  }
  return libraries;
}

// | `name` | a, b | holds |: the table rows of the section "core/, one library per folder".
std::vector<Library> documented_libraries(const std::string& markdown) {
  std::vector<Library> libraries;
  static const std::regex row(R"(\n\| `(\w+)` \| ([^|]*) \|)");
  const size_t section = markdown.find("## core/, one library per folder");
  REQUIRE(section != std::string::npos);
  const std::string text = markdown.substr(section, markdown.find("\n## ", section + 1) - section);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), row); it != std::sregex_iterator(); ++it) {
    std::string deps = (*it)[2];
    for (char& c : deps) c = c == ',' ? ' ' : c;
    std::set<std::string> names = words(deps);
    names.erase("—");
    libraries.emplace_back((*it)[1], names);
  }
  return libraries;
}

std::string joined(const auto& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : " ") + name;
  return text;
}

}  // namespace

TEST_CASE("docs: ARCHITECTURE.md's table of core libraries is core/CMakeLists.txt's, in its order") {
  const fs::path source = SNAPSCOPE_SOURCE_DIR;
  const std::vector<Library> declared = declared_libraries(read_text(source / "core/CMakeLists.txt"));
  const std::vector<Library> documented = documented_libraries(read_text(source / "docs/ARCHITECTURE.md"));
  REQUIRE(declared.size() > 10);
  std::vector<std::string> declared_names, documented_names;
  for (const auto& [name, deps] : declared) declared_names.push_back(name);
  for (const auto& [name, deps] : documented) documented_names.push_back(name);
  CHECK(joined(documented_names) == joined(declared_names));
  for (const auto& [name, deps] : declared) {
    for (const auto& [doc_name, doc_deps] : documented) {
      if (doc_name != name) continue;
      const std::string library = name;  // CAPTURE cannot name a structured binding (clang 14)
      CAPTURE(library);
      CHECK(joined(doc_deps) == joined(deps));
    }
  }
  std::set<std::string> folders;
  for (const auto& entry : fs::directory_iterator(source / "core")) {
    if (entry.is_directory()) folders.insert(entry.path().filename().string());
  }
  CHECK(joined(folders) == joined(std::set<std::string>(declared_names.begin(), declared_names.end())));
}
