// The precompiled header of every first-party C++ target under clang (CMakeLists.txt):
// nlohmann/json and the standard headers most sources include.
#pragma once
#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>
