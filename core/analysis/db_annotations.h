// The external_annotations a converted elements.db kept (its `annotations` table).
#pragma once

#include <string>
#include <vector>

#include "core/analysis/annotation_pairing.h"

namespace snapscope {

// In file order. Throws std::runtime_error("<path>: <reason>") for an unreadable database.
std::vector<AnnotationRecord> read_db_annotations(const std::string& path);

}  // namespace snapscope
