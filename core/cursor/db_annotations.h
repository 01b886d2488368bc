// external_annotations (record_function ranges) as stored in a converted elements.db.
#pragma once

#include <string>
#include <vector>

#include "core/analysis/annotation_pairing.h"

namespace snapscope {

// All devices, in recorded order. Throws InputError("<path>: <reason>") when unreadable.
std::vector<AnnotationRecord> annotations_from_elements_db(const std::string& path);

}  // namespace snapscope
