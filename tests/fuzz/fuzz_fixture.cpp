// The fuzz harnesses' fixture directory: generator -> pickle -> converter, once per process.
#include "fuzz_fixture.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <stdexcept>

#include "core/convert/convert.h"
#include "core/gen/snapshot_generator.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/timeline/timeline.h"

namespace snapscope::fuzz {
namespace fs = std::filesystem;

namespace {

fs::path make_scratch_dir() {
  const fs::path dir = fs::temp_directory_path() / ("snapscope-fuzz-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::atexit([] { fs::remove_all(scratch_dir()); });
  return dir;
}

fs::path make_fixture_dir() {
  const fs::path pickle = scratch_dir() / "fixture.pickle";
  {
    gen::GenOptions options;
    options.events = 400;
    options.mem_pool = true;  // the private pools view has something to read
    std::ofstream out(pickle, std::ios::binary);
    gen::write_snapshot(options, out);
  }
  ConvertOptions convert;
  convert.input = pickle.string();
  convert.output_dir = (scratch_dir() / "fixture.snapscope").string();
  convert_snapshot(convert);
  return convert.output_dir;
}

}  // namespace

const fs::path& scratch_dir() {
  static const fs::path dir = make_scratch_dir();
  return dir;
}

const fs::path& fixture_dir() {
  static const fs::path dir = make_fixture_dir();
  return dir;
}

// The replay's own refusal (live memory past 2^63 bytes, which no reader can see without
// replaying) is the file's InputError, as every product path reports it (timeline_from_file).
void replay_all(AllocationsFile& layout) {
  try {
    for (DeviceLayout& device : layout.devices) {
      const Timeline blocks = timeline_from_file("layout", std::move(device.blocks));
      const Timeline segments = timeline_from_file("layout", std::move(device.segments));
      (void)blocks.input();
      (void)segments.input();
    }
  } catch (const InputError&) {  // the one-line error, an accepted outcome
  }
}

void write_file(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error(path.string() + ": cannot write");
}

}  // namespace snapscope::fuzz
