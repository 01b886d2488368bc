#include "core/analysis/annotation_pairing.h"

#include <algorithm>
#include <unordered_map>

namespace snapscope {

AnnotationPairing pair_annotations(std::span<const AnnotationRecord> annotations, int64_t device) {
  AnnotationPairing pairing;
  std::unordered_map<std::string, std::vector<size_t>> open_by_name;  // indices into intervals
  std::vector<const AnnotationRecord*> open_starts;                   // by interval index, until closed
  size_t open_count = 0;
  for (const AnnotationRecord& record : annotations) {
    if (record.device != device) continue;
    if (record.stage == "START") {
      open_by_name[record.name].push_back(pairing.intervals.size());
      pairing.intervals.push_back({record.name, record.time_us, kNoTime, static_cast<uint32_t>(open_count)});
      open_starts.push_back(&record);
      ++open_count;
      continue;
    }
    std::vector<size_t>* open = nullptr;
    if (auto it = open_by_name.find(record.name); it != open_by_name.end() && !it->second.empty())
      open = &it->second;
    if (record.stage != "END" || open == nullptr) {
      pairing.unmatched.push_back(record);
      continue;
    }
    pairing.intervals[open->back()].end_time_us = record.time_us;
    open_starts[open->back()] = nullptr;
    open->pop_back();
    --open_count;
  }
  // STARTs never closed are reported, not guessed into ranges that run to the end.
  std::vector<AnnotationInterval> closed;
  for (size_t i = 0; i < pairing.intervals.size(); ++i) {
    if (open_starts[i] != nullptr) {
      pairing.unmatched.push_back(*open_starts[i]);
    } else {
      closed.push_back(std::move(pairing.intervals[i]));
    }
  }
  pairing.intervals = std::move(closed);
  return pairing;
}

}  // namespace snapscope
