// Where the viewer keeps its files, following the XDG base directory spec.
#pragma once

#include <filesystem>

namespace snapscope {

// $XDG_CACHE_HOME/snapscope, else $HOME/.cache/snapscope (relative XDG values are ignored, per spec).
std::filesystem::path cache_root();
// $XDG_CONFIG_HOME/snapscope, else $HOME/.config/snapscope.
std::filesystem::path config_root();

}  // namespace snapscope
