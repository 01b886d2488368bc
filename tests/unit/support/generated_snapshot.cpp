#include "unit/support/generated_snapshot.h"

#include <fstream>
#include <stdexcept>

#include "core/gen/snapshot_generator.h"

namespace snapscope::test {

void write_generated(const std::filesystem::path& path, const gen::GenOptions& options) {
  std::ofstream out(path, std::ios::binary);
  gen::write_snapshot(options, out);
  out.close();
  if (!out) throw std::runtime_error(path.string() + ": cannot write the generated snapshot");
}

void write_generated(const std::filesystem::path& path, uint64_t events, uint64_t seed) {
  gen::GenOptions options;
  options.events = events;
  options.seed = seed;
  write_generated(path, options);
}

ConvertSummary convert_into(const std::filesystem::path& input, const std::filesystem::path& output_dir,
                            int device) {
  ConvertOptions options;
  options.input = input.string();
  options.output_dir = output_dir.string();
  options.device = device;
  return convert_snapshot(options);
}

}  // namespace snapscope::test
