// libFuzzer harness: allocations.json text (or its Zstandard form, allocations.json.zst) -> the
// reader -> the replayed timelines the viewer builds from it. A clear InputError is the only
// acceptable failure.
#include <cstddef>
#include <cstdint>

#include "core/snapshot/snapshot_reader.h"
#include "core/store/allocations_json/allocations_json.h"
#include "fuzz_fixture.h"

using namespace snapscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto path = fuzz::scratch_dir() / "allocations.json";
  fuzz::write_file(path, fuzz::as_text(data, size));
  AllocationsFile layout;
  try {
    layout = read_allocations_json(path.string());
  } catch (const InputError&) {
    return 0;
  }
  fuzz::replay_all(layout);
  return 0;
}
