// Checks a converted directory before the viewer trusts it: elements.db must carry the format
// and version this build writes and exactly the schema the writer itself creates (so a crafted
// file cannot bring its own views or triggers), and allocations.json must describe the same
// devices and element/action counts as elements.db. Converted directories are shared like
// pickles are, so both files are untrusted input.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/store/allocations_json/allocations_json.h"

namespace snapscope {

// Throws InputError("<db path>: <what is wrong>").
void verify_elements_db(const std::string& db_path);

// The most layout text (allocations.json, decompressed) the devices elements.db lists can need,
// every number written at its widest: 1 MiB + per device 4 KiB + 512 B per element + 64 B per
// action (docs/FORMAT.md). read_allocations_json is given it, so a small allocations.json.zst of
// gigabytes of whitespace is refused before it is held. Throws InputError("<db path>: ...").
uint64_t layout_text_bound(const std::string& db_path);

// The size of the snapshot file the database was converted from (meta source_bytes); nullopt
// when the database cannot be read or records none.
std::optional<uint64_t> recorded_source_bytes(const std::string& db_path);

// Throws InputError("<db path>: ... disagrees with allocations.json ...").
void verify_layout_matches_db(const AllocationsFile& layout, const std::string& db_path);

}  // namespace snapscope
