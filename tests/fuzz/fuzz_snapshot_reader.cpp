// libFuzzer harness: pickle bytes (plain, or gzip when they start with its magic) -> the
// unpickler and snapshot reader -> both derived layouts and their replayed timelines, as the
// converter builds them. Only InputError is an acceptable failure: any other exception, a
// sanitizer report, a hang or a blow-up is a bug.
#include <cstddef>
#include <cstdint>

#include "core/snapshot/snapshot_reader.h"
#include "core/store/allocations_json/allocations_json.h"
#include "fuzz_fixture.h"

using namespace snapscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Snapshot snapshot;
  try {
    snapshot = read_snapshot_bytes(fuzz::as_text(data, size), "fuzz.pickle");
  } catch (const InputError&) {
    return 0;
  }
  AllocationsFile layout = make_allocations_file(snapshot);
  fuzz::replay_all(layout);
  return 0;
}
