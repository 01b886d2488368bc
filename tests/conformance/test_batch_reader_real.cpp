// The batch reader (core/pickle/batch_reader.h) on every real snapshot: the snapshot must be the
// one the opcode-by-opcode parse reads, id for id, and nearly every trace entry must really have
// been read in a whole batch (a reader that always left batches to that parse would pass the
// first check).
#include <doctest/doctest.h>

#include "core/snapshot/snapshot_reader.h"
#include "real_snapshots.h"
#include "unit/support/snapshot_digest.h"

using namespace snapscope;

TEST_SUITE("conformance") {
  TEST_CASE("the batch reader reads every real snapshot as the opcode-by-opcode parse does, id for id") {
    for (const auto& path : conformance::snapshot_pickles()) {
      CAPTURE(path.filename().string());
      ReadOptions opcode_by_opcode;
      opcode_by_opcode.threads = 1;
      opcode_by_opcode.read_batches = false;
      const std::string expected = testing::snapshot_digest(read_snapshot(path.string(), opcode_by_opcode));
      ReadOptions batched;
      batched.threads = 1;
      uint64_t batch_items = 0;
      batched.batch_items = &batch_items;
      const Snapshot snapshot = read_snapshot(path.string(), batched);
      CHECK(testing::snapshot_digest(snapshot) == expected);
      size_t events = 0;
      for (const DeviceTrace& trace : snapshot.device_traces) events += trace.events.size();
      CAPTURE(events);
      CHECK(batch_items <= events);
      // Every batch of a trace of thousands holds entries of the shapes the reader takes.
      if (events >= 5000) CHECK(batch_items >= events * 9 / 10);
    }
  }

}  // TEST_SUITE
