// external_annotations (record_function ranges and the like) are START/END marks; this pairs
// them into intervals per device. Ranges may nest or overlap; an END closes the most recent
// open START of the same name.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/snapshot/model.h"

namespace snapscope {

struct AnnotationRecord {
  std::string stage;  // "START" or "END"
  std::string name;
  int64_t device = 0;
  int64_t time_us = kNoTime;
};

std::vector<AnnotationRecord> snapshot_annotations(const Snapshot& snapshot);
// Only those of `devices`, as a conversion of those devices keeps them in elements.db.
std::vector<AnnotationRecord> snapshot_annotations(const Snapshot& snapshot, std::span<const int> devices);

struct AnnotationInterval {
  std::string name;
  int64_t start_time_us = kNoTime;
  int64_t end_time_us = kNoTime;
  uint32_t depth = 0;  // intervals (of any name) already open when this one started
};

struct AnnotationPairing {
  std::vector<AnnotationInterval> intervals;  // in START order
  std::vector<AnnotationRecord> unmatched;    // END without START, START never ended, other stages
};

// Only annotations on `device`, in recorded order.
AnnotationPairing pair_annotations(std::span<const AnnotationRecord> annotations, int64_t device);

}  // namespace snapscope
