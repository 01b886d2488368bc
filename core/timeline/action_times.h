// The time_us of each action of a replay, kNoTime where absent. The times of 256 actions rarely
// span 35 minutes, so nearly all take 4 bytes instead of 8 (PackedInt64s).
#pragma once

#include "core/snapshot/model.h"
#include "core/util/packed_int64s.h"

namespace snapscope {

static_assert(kNoTime == std::numeric_limits<int64_t>::min(), "PackedInt64s keeps INT64_MIN in an offset");
using ActionTimes = PackedInt64s;

}  // namespace snapscope
