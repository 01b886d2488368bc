// file_content_key (core/document/content_key.h): the whole file's chained hash, hashed in place
// from a mapping, is the key the chunks read with read(2) gave (cache entries keep their names).
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/document/content_key.h"
#include "core/snapshot/snapshot_reader.h"

using namespace snapscope;
namespace fs = std::filesystem;

TEST_CASE("a file's content key chains the hashes of its 8 MiB chunks, and ends with its size") {
  const fs::path path = fs::temp_directory_path() / ("snapscope-key-" + std::to_string(::getpid()) + ".bin");
  std::string bytes((8 << 20) + 12345, '\0');
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>((i * 2654435761u) >> 13);
  std::ofstream(path, std::ios::binary) << bytes;

  const uint64_t first = content_hash(bytes.data(), 8 << 20, 0);
  const uint64_t whole = content_hash(bytes.data() + (8 << 20), bytes.size() - (8 << 20), first);
  char expected[64];
  std::snprintf(expected, sizeof expected, "%016llx-%zu", static_cast<unsigned long long>(whole),
                bytes.size());
  CHECK(file_content_key(path) == expected);

  std::ofstream(path, std::ios::binary | std::ios::trunc);  // empty: nothing to map
  std::snprintf(expected, sizeof expected, "%016llx-0", static_cast<unsigned long long>(0));
  CHECK(file_content_key(path) == expected);
  fs::remove(path);
  CHECK_THROWS_AS(file_content_key(path), InputError);
}
