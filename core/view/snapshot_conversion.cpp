#include "core/view/snapshot_conversion.h"

#include <string>
#include <system_error>
#include <unistd.h>

#include "core/snapshot/snapshot_reader.h"
#include "core/store/allocations_json.h"

namespace snapscope {
namespace fs = std::filesystem;

void convert_snapshot_into(const fs::path& pickle, const fs::path& directory,
                           const std::function<void(float)>& on_progress) {
  const fs::path staging = directory.string() + ".partial-" + std::to_string(::getpid());
  fs::remove_all(staging);
  fs::create_directories(staging);
  try {
    ReadOptions options;
    options.on_progress = [&](const ReadProgress& read) {
      if (read.bytes_total > 0) {
        on_progress(0.9f * static_cast<float>(read.bytes_read) / static_cast<float>(read.bytes_total));
      }
    };
    const Snapshot snapshot = read_snapshot(pickle.string(), options);
    write_allocations_json(make_allocations_file(snapshot), (staging / "allocations.json").string());
    on_progress(1.0f);
    std::error_code ignored;
    fs::rename(staging, directory, ignored);  // loses a race only to an identical conversion
    if (fs::exists(staging)) fs::remove_all(staging);
  } catch (...) {
    std::error_code ignored;
    fs::remove_all(staging, ignored);
    throw;
  }
}

}  // namespace snapscope
