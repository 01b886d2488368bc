// Reads one pickle on several threads. A scan thread finds chunks (core/pickle/chunk_scan.h:
// runs of a list's batches, in a snapshot the trace entries), worker threads parse them apart,
// each into its own tables, and the whole file's unpickler, reading in order, splices each
// chunk in when it gets there: the chunk's strings, frames, stacks, streams and events join
// the snapshot's in file order, so the snapshot is the one one thread makes, id for id. A chunk
// a worker could not parse alone (it needs values from before it, or is not made of trace
// entries, or is malformed) or has not started when the unpickler gets there is parsed by the
// unpickler itself, so errors read exactly as they do on one thread.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/pickle/chunk_scan.h"
#include "core/pickle/unpickler.h"
#include "core/snapshot/snapshot_reducer.h"

namespace snapscope {

struct ParallelReadOptions {
  unsigned threads = 2;  // the unpickler's and the workers' (the scan runs beside them)
  pickle::ChunkScanOptions scan;
  uint64_t lookahead_bytes = uint64_t{256} << 20;  // how far workers may run ahead of the unpickler
  // Tests: the unpickler waits for the scan and for a worker at every chunk instead of reading
  // on, so that every chunk a worker can parse is spliced in.
  bool unpickler_waits = false;
};

struct ParallelReadStats {
  size_t chunks = 0;          // found by the scan
  size_t spliced = 0;         // parsed by workers and spliced in
  size_t spliced_events = 0;  // trace entries in those
  // CPU seconds (each thread's own clock), for the design's scaling: the scan and the merges run
  // on one thread each whatever the core count, the chunk parses on all of them.
  double scan_cpu_s = 0;
  uint64_t scanned_bytes = 0;  // where the scan ended
  double parse_cpu_s = 0;      // chunk parses, by any thread, of the chunks spliced in or not
  double merge_cpu_s = 0;      // splicing chunks in, on the unpickler's thread
};

class ParallelChunks final : public pickle::ChunkSplicer {
 public:
  // `source` must have random access and outlive this; `reducer` and `snapshot` are the whole
  // file's, `limits` its unpickler's.
  ParallelChunks(const ByteSource& source, uint64_t size, const ParallelReadOptions& options,
                 const pickle::UnpicklerLimits& limits, SnapshotReducer& reducer, Snapshot& snapshot);
  ~ParallelChunks() override;  // stops and joins every thread
  ParallelChunks(const ParallelChunks&) = delete;
  ParallelChunks& operator=(const ParallelChunks&) = delete;

  uint64_t next_start(uint64_t offset) override;
  bool splice(uint64_t offset, const pickle::SpliceState& state, const pickle::Unpickler& unpickler,
              pickle::SplicedChunk& out) override;
  ParallelReadStats stats() const;

  struct Result;        // a worker's parse of one chunk
  class StringsBefore;  // strings memoised before a chunk, read once for every chunk

 private:
  enum class State : uint8_t { Waiting, Parsing, Done, Unpickler };
  struct Slot {
    State state = State::Waiting;
    std::unique_ptr<Result> result;
  };

  void scan();
  void work();
  bool take_next(size_t& index);
  bool claim(size_t& index);
  void parse_claimed(size_t index);
  std::unique_ptr<Result> parse(const pickle::PickleChunk& chunk) const;
  void pass_chunks_before(uint64_t offset);
  bool merge(const Result& result, const pickle::Unpickler& unpickler, pickle::SplicedChunk& out);

  const ByteSource& source_;
  uint64_t size_;
  ParallelReadOptions options_;
  pickle::UnpicklerLimits limits_;
  SnapshotReducer& reducer_;
  Snapshot& snapshot_;
  pickle::ChunkPlan plan_;
  std::unique_ptr<StringsBefore> strings_before_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<Slot> slots_;        // one per chunk the plan can hold
  size_t next_claim_ = 0;          // workers take chunks in order from here
  size_t cursor_ = 0;              // the unpickler's: chunks before it are behind it
  uint64_t unpickler_offset_ = 0;  // how far the unpickler got, for the lookahead
  size_t spliced_ = 0;
  size_t spliced_events_ = 0;
  double scan_cpu_s_ = 0;
  double parse_cpu_s_ = 0;
  double merge_cpu_s_ = 0;
  std::atomic<bool> cancel_{false};
  std::vector<std::thread> threads_;  // declared last: started after everything above exists
};

// Threads to read a `bytes`-long input with when the caller asks for `requested`; 0 asks for the
// automatic choice: every usable core, up to 16, where there are 4 or more, else one. Small
// inputs read on one thread: the scan and the threads would cost more than they save.
unsigned read_threads_for(uint64_t bytes, unsigned requested);

}  // namespace snapscope
