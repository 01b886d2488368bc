// Turns the unpickled top-level dict (after SnapshotReducer did its work) into a Snapshot.
#pragma once

#include "core/pickle/unpickler.h"
#include "core/snapshot/model.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/snapshot/snapshot_reducer.h"

namespace snapscope {

// Fills segments, blocks, traces, annotations, allocator settings and top-level keys.
// Throws pickle::ReduceError with a one-line reason for data of the wrong shape.
void build_snapshot(pickle::Value top, const pickle::Unpickler& unpickler, SnapshotReducer& reducer,
                    const ReadOptions& options, Snapshot& snapshot);

}  // namespace snapscope
