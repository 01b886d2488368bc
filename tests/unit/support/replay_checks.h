// doctest checks that two replay inputs are the same, field by field (each difference is
// reported with its element or action).
#pragma once

#include "core/timeline/replay_input.h"

namespace snapscope::test {

void check_same_replay(const ReplayInput& a, const ReplayInput& b);

}  // namespace snapscope::test
