// Everything a snapshot reader produces, as text: tables in id order, events field by field.
// Two reads agree id for id exactly when their digests are equal (the parallel reader's tests).
#pragma once

#include <string>

#include "core/snapshot/model.h"

namespace snapscope::testing {

std::string snapshot_digest(const Snapshot& snapshot);

}  // namespace snapscope::testing
