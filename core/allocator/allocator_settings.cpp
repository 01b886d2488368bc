#include "core/allocator/allocator_settings.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include <nlohmann/json.hpp>

namespace snapscope {
namespace {

constexpr std::string_view kConfKey = "PYTORCH_CUDA_ALLOC_CONF";

std::string meaning_of(std::string_view key) {
  if (key == kConfKey) return "the environment variable the process started with";
  if (key == "expandable_segments") return "segments grow by mapping pages instead of new cudaMallocs";
  if (key == "max_split_size") return "blocks above this size are never split (limits fragmentation)";
  if (key == "garbage_collection_threshold") return "reclaim cached blocks past this fraction of memory";
  if (key == "roundup_power2_divisions") return "request sizes rounded up to power-of-two divisions";
  if (key == "release_lock_on_cudamalloc") return "the allocator's lock is dropped around cudaMalloc";
  if (key == "pinned_use_cuda_host_register") return "pinned host memory via cudaHostRegister";
  if (key == "pinned_num_register_threads") return "threads registering pinned host memory";
  if (key == "graph_capture_record_stream_reuse") return "CUDA graph capture reuses blocks across streams";
  return {};
}

// The divisions per size class; all zero means rounding is off.
std::string divisions_text(const nlohmann::json& value) {
  if (!value.is_object()) return value.dump();
  std::vector<std::pair<double, int64_t>> set;
  for (const auto& [size, divisions] : value.items()) {
    if (!divisions.is_number_integer() || divisions.get<int64_t>() == 0) continue;
    set.emplace_back(std::atof(size.c_str()), divisions.get<int64_t>());
  }
  if (set.empty()) return "off";
  std::sort(set.begin(), set.end());
  std::string text;
  for (const auto& [size, divisions] : set)
    text += (text.empty() ? "" : ", ") + std::to_string(static_cast<int64_t>(size)) +
            " MiB: " + std::to_string(divisions);
  return text;
}

std::string readable_value(std::string_view key, const std::string& json_text) {
  const nlohmann::json value = nlohmann::json::parse(json_text, nullptr, false);
  if (value.is_discarded()) return json_text;
  if (key == kConfKey && value.is_string()) {
    const std::string conf = value.get<std::string>();
    return conf.empty() ? "(not set)" : conf;
  }
  if (key == "max_split_size" && value.is_number_integer() && value.get<int64_t>() < 0) return "unlimited";
  if (key == "garbage_collection_threshold" && value.is_number() && value.get<double>() == 0) return "off";
  if (key == "roundup_power2_divisions") return divisions_text(value);
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

}  // namespace

std::vector<AllocatorSetting> describe_allocator_settings(
    const std::vector<std::pair<std::string, std::string>>& raw) {
  std::vector<AllocatorSetting> settings;
  for (const auto& [key, json_text] : raw)
    settings.push_back({key, readable_value(key, json_text), meaning_of(key)});
  std::stable_sort(settings.begin(), settings.end(),
                   [](const AllocatorSetting& a, const AllocatorSetting& b) {
                     return (a.key == kConfKey) > (b.key == kConfKey);
                   });
  return settings;
}

std::string allocator_settings_line(const std::vector<AllocatorSetting>& settings) {
  if (settings.empty()) return "not recorded";
  std::string conf, rest;
  for (const AllocatorSetting& setting : settings) {
    const std::string pair = setting.key + "=" + setting.value;
    if (setting.key == kConfKey) {
      conf = pair;
    } else {
      rest += (rest.empty() ? "" : ", ") + pair;
    }
  }
  return conf.empty() ? rest : rest.empty() ? conf : conf + "; " + rest;
}

}  // namespace snapscope
