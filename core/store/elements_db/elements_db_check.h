// Checks a converted directory before the viewer trusts it: elements.db must carry the format
// and version this build writes and exactly the schema the writer itself creates (so a crafted
// file cannot bring its own views or triggers), and allocations.json must describe the same
// devices and element/action counts as elements.db. Converted directories are shared like
// pickles are, so both files are untrusted input.
#pragma once

#include <string>

#include "core/store/allocations_json/allocations_json.h"

namespace snapscope {

// Throws InputError("<db path>: <what is wrong>").
void verify_elements_db(const std::string& db_path);

// Throws InputError("<db path>: ... disagrees with allocations.json ...").
void verify_layout_matches_db(const AllocationsFile& layout, const std::string& db_path);

}  // namespace snapscope
