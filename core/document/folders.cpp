#include "core/document/folders.h"

#include <cstdlib>

namespace snapscope {
namespace {

std::filesystem::path xdg_dir(const char* variable, const char* home_fallback) {
  const char* value = std::getenv(variable);
  if (value != nullptr && value[0] == '/') return std::filesystem::path(value) / "snapscope";
  const char* home = std::getenv("HOME");
  const std::filesystem::path base = (home != nullptr && home[0] != '\0') ? home : "/tmp";
  return base / home_fallback / "snapscope";
}

}  // namespace

std::filesystem::path cache_root() { return xdg_dir("XDG_CACHE_HOME", ".cache"); }
std::filesystem::path config_root() { return xdg_dir("XDG_CONFIG_HOME", ".config"); }

}  // namespace snapscope
