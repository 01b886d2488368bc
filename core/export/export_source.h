// One device of a snapshot, loaded for analysis without a display: from a pickle (read into
// memory) or a converted directory (allocations.json + elements.db). The converter's --report
// and every export (core/export) read their input through this, so they agree on devices,
// events and stacks.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/annotation_pairing.h"
#include "core/analysis/module_instances.h"
#include "core/analysis/stack_source.h"
#include "core/timeline/private_pool_layout.h"
#include "core/timeline/reserved_series.h"
#include "core/timeline/timeline.h"

namespace snapscope {

struct SourceOptions {
  int device = -1;            // -1: the first device with a trace or segments
  bool with_segments = true;  // also build the segment timeline (reserved memory)
};

struct AnalysisSource {
  std::string file;
  int device = 0;
  std::vector<int> devices;
  std::optional<uint64_t> raw_events;  // the device's recorded events (pickle or elements.db)
  std::unique_ptr<Snapshot> snapshot;  // pickle input only; the stack source points into it
  std::unique_ptr<StackSource> stacks;
  std::unique_ptr<Timeline> blocks;    // memory_viz's Active Memory Timeline
  std::unique_ptr<Timeline> segments;  // Active Cached Segment Timeline; null unless with_segments
  ReservedSeries reserved;             // the one reserved figure (reserved_series.h)
  std::vector<AnnotationRecord> annotations;
  std::string elements_db;              // converted directory input only
  ForwardFramesByEvent forward_frames;  // the device's events that carry forward_frames
};

// A directory is read as a converted snapshot, anything else as a pickle (.gz allowed).
// Throws InputError ("<file>: <reason>") for bad input or a device the input does not have.
AnalysisSource load_analysis_source(const std::string& path, const SourceOptions& options = {});

// The blocks timeline's private pools view (from the snapshot or elements.db); null when the
// device has no private pool.
std::shared_ptr<const PrivatePoolLayout> private_pools_of(const AnalysisSource& source);

// The state right after raw trace event `event`, or the peak state when `event` is empty.
// Throws InputError for an event past the device's trace (when its length is known).
size_t resolve_moment(const AnalysisSource& source, std::optional<int64_t> event);

}  // namespace snapscope
