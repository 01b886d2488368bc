// Options of the synthetic snapshot generator (snapscope-gen and in-process test fixtures).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace snapscope::gen {

struct GenOptions {
  uint64_t events = 20000;    // over all devices; each trace ends at the next workload step boundary
  uint64_t target_bytes = 0;  // approximate output size; 0 = use `events`
  int devices = 1;
  uint64_t seed = 1;
  bool timestamps = true;  // false: no time_us on events, no external_annotations
  int protocol = 4;
  bool compile_context = false;  // compile_context on every trace event
  bool user_metadata = false;    // user_metadata on every trace event
  bool annotations = true;       // external_annotations (needs timestamps)
  bool ghost_parameters = true;  // parameters allocated before recording started
  uint64_t host_batches = 0;     // > 0: host_segments / host_traces of this many pinned batches
  bool memory_notes = false;     // annotate events: every 40th allocation noted a few events later
  // Each layer's all-gathered parameters come from a private pool (torch.cuda.MemPool, id (0, 1)),
  // as FSDP's unsharded buffers: its segments stay reserved when the buffers are freed.
  bool mem_pool = false;
  // Backward allocations carry forward_frames: their layer's forward op as Python traceback
  // strings, as autograd's forward-stack recording writes them.
  bool forward_frames = false;
};

}  // namespace snapscope::gen
