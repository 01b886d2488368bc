// libFuzzer harness: pickle bytes (plain, or gzip when they start with its magic) -> the
// unpickler and snapshot reader -> both derived layouts and their replayed timelines, as the
// converter builds them. Only InputError is an acceptable failure: any other exception, a
// sanitizer report, a hang or a blow-up is a bug. Each input is also read opcode by opcode,
// without the batch reader (core/pickle/batch_reader.h): the two reads must agree id for id,
// or fail with the same message.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/snapshot/snapshot_reader.h"
#include "core/store/allocations_json/allocations_json.h"
#include "fuzz_fixture.h"
#include "unit/support/snapshot_digest.h"

using namespace snapscope;

namespace {

// The snapshot's digest, or its error.
std::string outcome(std::string_view bytes, bool batches, Snapshot* out) {
  ReadOptions options;
  options.read_batches = batches;
  try {
    Snapshot snapshot = read_snapshot_bytes(bytes, "fuzz.pickle", options);
    std::string digest = testing::snapshot_digest(snapshot);
    if (out) *out = std::move(snapshot);
    return digest;
  } catch (const InputError& e) {
    return std::string("error: ") + e.what();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Snapshot snapshot;
  const std::string batched = outcome(fuzz::as_text(data, size), true, &snapshot);
  const std::string opcode_by_opcode = outcome(fuzz::as_text(data, size), false, nullptr);
  if (batched != opcode_by_opcode) {
    std::fprintf(stderr, "the batch reader disagrees with the opcode-by-opcode parse:\n%s\n---\n%s\n",
                 batched.substr(0, 2000).c_str(), opcode_by_opcode.substr(0, 2000).c_str());
    std::abort();
  }
  if (batched.rfind("error: ", 0) == 0) return 0;
  AllocationsFile layout = make_allocations_file(snapshot);
  fuzz::replay_all(layout);
  return 0;
}
