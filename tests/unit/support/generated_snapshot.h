// Inputs the store, session and CLI tests share: a pickle from snapscope-gen's generator, and a
// plain conversion of a pickle into a directory.
#pragma once

#include <cstdint>
#include <filesystem>

#include "core/convert/convert.h"
#include "core/gen/gen_options.h"

namespace snapscope::test {

// Writes the snapshot the generator makes for `options` to `path`.
void write_generated(const std::filesystem::path& path, const gen::GenOptions& options);
// The same for the generator's defaults but `events` and `seed`.
void write_generated(const std::filesystem::path& path, uint64_t events, uint64_t seed = 1);

// Converts `input` into `output_dir` (device: all, or only that one), as snapscope-convert does.
ConvertSummary convert_into(const std::filesystem::path& input, const std::filesystem::path& output_dir,
                            int device = -1);

}  // namespace snapscope::test
