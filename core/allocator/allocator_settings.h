// The caching allocator's configuration as the snapshot recorded it (`allocator_settings`:
// PYTORCH_CUDA_ALLOC_CONF and what it resolved to), in words a reader can act on. memory_viz
// shows these on its fifth tab; the viewer's Settings tab and `--report` show them here.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace snapscope {

struct AllocatorSetting {
  std::string key;
  std::string value;    // readable: "unlimited" for max_split_size -1, "off" for all-zero divisions
  std::string meaning;  // what it does, one short sentence (empty for keys we do not know)
};

// `raw`: (key, value as JSON text) rows, as elements.db stores them. PYTORCH_CUDA_ALLOC_CONF comes
// first; unknown keys keep their JSON text. Malformed JSON is shown as it is.
std::vector<AllocatorSetting> describe_allocator_settings(
    const std::vector<std::pair<std::string, std::string>>& raw);

// One line: "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True; expandable_segments=true, ...";
// "not recorded" when the snapshot has none (PyTorch before 2.1).
std::string allocator_settings_line(const std::vector<AllocatorSetting>& settings);

}  // namespace snapscope
