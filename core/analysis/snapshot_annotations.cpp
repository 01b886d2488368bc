// Separate from the pairing so code that never holds a Snapshot does not link the model tables.
#include "core/analysis/annotation_pairing.h"

namespace snapscope {

std::vector<AnnotationRecord> snapshot_annotations(const Snapshot& snapshot) {
  std::vector<AnnotationRecord> records;
  records.reserve(snapshot.annotations.size());
  for (const Annotation& annotation : snapshot.annotations) {
    records.push_back({std::string(snapshot.strings.view(annotation.stage)),
                       std::string(snapshot.strings.view(annotation.name)), annotation.device,
                       annotation.time_us});
  }
  return records;
}

}  // namespace snapscope
