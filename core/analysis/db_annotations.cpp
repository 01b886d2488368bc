#include "core/analysis/db_annotations.h"

#include <exception>

#include "core/store/elements_db/elements_db_reader.h"

namespace snapscope {

std::vector<AnnotationRecord> read_db_annotations(const std::string& path) {
  std::vector<AnnotationRecord> records;
  for (AnnotationRow& row : ElementsDbReader(path).annotations()) {
    records.push_back({std::move(row.stage), std::move(row.name), row.device, row.time_us});
  }
  return records;
}

std::shared_ptr<const std::vector<AnnotationRecord>> read_db_annotations_or_none(const std::string& path) {
  try {
    return std::make_shared<const std::vector<AnnotationRecord>>(read_db_annotations(path));
  } catch (const std::exception&) {
    return std::make_shared<const std::vector<AnnotationRecord>>();
  }
}

}  // namespace snapscope
