// Separate from the pairing so code that never holds a Snapshot does not link the model tables.
#include <algorithm>

#include "core/analysis/annotation_pairing.h"

namespace snapscope {
namespace {

template <typename Keep>
std::vector<AnnotationRecord> annotations_where(const Snapshot& snapshot, Keep keep) {
  std::vector<AnnotationRecord> records;
  records.reserve(snapshot.annotations.size());
  for (const Annotation& annotation : snapshot.annotations) {
    if (!keep(annotation)) continue;
    records.push_back({std::string(snapshot.strings.view(annotation.stage)),
                       std::string(snapshot.strings.view(annotation.name)), annotation.device,
                       annotation.time_us});
  }
  return records;
}

}  // namespace

std::vector<AnnotationRecord> snapshot_annotations(const Snapshot& snapshot) {
  return annotations_where(snapshot, [](const Annotation&) { return true; });
}

std::vector<AnnotationRecord> snapshot_annotations(const Snapshot& snapshot, std::span<const int> devices) {
  return annotations_where(snapshot, [devices](const Annotation& annotation) {
    return std::find(devices.begin(), devices.end(), annotation.device) != devices.end();
  });
}

}  // namespace snapscope
