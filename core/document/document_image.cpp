#include "core/document/document_image.h"

#include <exception>
#include <string>

#include "core/snapshot/snapshot_reader.h"
#include "core/store/allocations_json/allocations_json.h"
#include "core/store/elements_db/elements_db_check.h"
#include "core/util/background_priority.h"
#include "core/util/run_beside.h"

namespace snapscope {
namespace fs = std::filesystem;

namespace {

// The layout the image stands for, as the layout check wants it (the inputs' columns are views:
// copying them copies no array).
AllocationsFile layout_of(const std::vector<LoadedDevice>& devices) {
  AllocationsFile layout;
  for (const LoadedDevice& device : devices)
    layout.devices.push_back({device.device, device.blocks.input(), device.segments.input()});
  return layout;
}

}  // namespace

std::optional<std::vector<LoadedDevice>> timelines_from_image(const fs::path& dir, LoadProgress& progress) {
  const fs::path image = dir / kTimelineImageName;
  std::error_code error;
  if (!fs::exists(image, error)) return std::nullopt;
  const fs::path layout_file = allocations_file_in(dir);
  if (layout_file.empty()) return std::nullopt;
  const std::string db_path = (dir / kElementsDbName).string();
  try {
    std::optional<std::vector<LoadedDevice>> devices;
    run_beside(
        [&] {
          const StageTimer timer(&progress.stages, std::string("map ") + kTimelineImageName);
          devices = read_timeline_image(image, layout_file);
        },
        [&] {
          const StageTimer timer(&progress.stages, "check elements.db");
          verify_elements_db(db_path);
        });
    if (!devices) return std::nullopt;
    const StageTimer timer(&progress.stages, "check image against elements.db");
    verify_layout_matches_db(layout_of(*devices), db_path);
    return devices;
  } catch (const InputError&) {
    fs::remove(image, error);  // made again after the layout file's open
    return std::nullopt;
  } catch (const std::exception&) {
    return std::nullopt;  // out of memory, a file that vanished: the layout file's open says
  }
}

void store_timeline_image(const fs::path& dir, const ReplayedDevices& devices, LoadProgress& progress) {
  lower_thread_priority(kBulkWorkNice);
  write_timeline_image_quietly(dir / kTimelineImageName, allocations_file_in(dir), imaged_devices(devices),
                               &progress.stages);
}

}  // namespace snapscope
