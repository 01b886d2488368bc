// Reads a snapshot pickle (optionally gzip-compressed) into the model, streaming,
// without ever executing anything from the file.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/snapshot/event_sink.h"
#include "core/snapshot/model.h"
#include "core/snapshot/parallel_reader.h"

namespace snapscope {

// Any problem with an input file. what() is one line: "<file>: <what is wrong>".
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ReadProgress {
  uint64_t bytes_read = 0;   // compressed bytes consumed so far
  uint64_t bytes_total = 0;  // file size
};

struct ReadOptions {
  // >= 0: keep only this device's trace. Other devices' entries are still parsed (the bytes
  // must be read) but not built into events, stored or streamed, where the unpickler can tell
  // which device_traces list they land in (any pickle protocol >= 1).
  int only_device = -1;
  std::function<void(const ReadProgress&)> on_progress;  // called every few MB
  EventSink* event_sink = nullptr;  // optional: every trace entry, all devices, while reading
  // Runs of trace entries with an EventExtra (equal neighbours share one) that a snapshot may
  // have: a TraceEvent links no further. More fail the read. Lower only in tests.
  uint32_t max_event_extras = TraceEvent::kLinkLimit;
  // Threads to read with (core/snapshot/parallel_reader.h); 0, the default, chooses by the usable
  // cores (read_threads_for): one below 4, where the parallel reader gains nothing. Inputs under
  // 32 MB, gzip input and pipes are read on one.
  unsigned threads = 0;
  // Tests: read in parallel whatever the input's size, with these chunk sizes.
  std::optional<ParallelReadOptions> parallel_for_tests;
  ParallelReadStats* parallel_stats = nullptr;  // filled in when given
  // Tests: false reads every opcode one by one, the batch reader's reference
  // (core/pickle/batch_reader.h).
  bool read_batches = true;
  uint64_t* batch_items = nullptr;  // filled in when given: the items read in whole batches
};

// Throws InputError for unreadable, malformed, unsafe or non-snapshot input.
Snapshot read_snapshot(const std::string& path, const ReadOptions& options = {});
// The same for a snapshot already in memory (gzip or not); errors are named `name`.
Snapshot read_snapshot_bytes(std::string_view bytes, const std::string& name,
                             const ReadOptions& options = {});

}  // namespace snapscope
