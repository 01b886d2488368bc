// The external_annotations a converted elements.db kept (its `annotations` table).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/analysis/annotation_pairing.h"

namespace snapscope {

// In file order. Throws std::runtime_error("<path>: <reason>") for an unreadable database.
std::vector<AnnotationRecord> read_db_annotations(const std::string& path);
// The same, shared; none when they cannot be read: a database without annotations still shows
// everything else.
std::shared_ptr<const std::vector<AnnotationRecord>> read_db_annotations_or_none(const std::string& path);

}  // namespace snapscope
