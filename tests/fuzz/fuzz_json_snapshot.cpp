// libFuzzer harness: a JSON snapshot (plain, or gzip when it starts with its magic) -> the
// streaming JSON-to-pickle transcoder -> the unpickler and snapshot reader -> both derived
// layouts and their replayed timelines. Only InputError is an acceptable failure.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/snapshot/snapshot_reader.h"
#include "core/store/allocations_json/allocations_json.h"
#include "fuzz_fixture.h"

using namespace snapscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto path = fuzz::scratch_dir() / "fuzz.json";
  // read_snapshot takes a file for JSON (it tells JSON from pickle by the first non-blank byte):
  // a leading '{' keeps the input on the JSON path unless it is gzip.
  const std::string_view text = fuzz::as_text(data, size);
  const bool gzip = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
  fuzz::write_file(path, gzip || text.starts_with('{') ? std::string(text) : "{" + std::string(text));
  Snapshot snapshot;
  try {
    snapshot = read_snapshot(path.string());
  } catch (const InputError&) {
    return 0;
  }
  AllocationsFile layout = make_allocations_file(snapshot);
  fuzz::replay_all(layout);
  return 0;
}
