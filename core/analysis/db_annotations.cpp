#include "core/analysis/db_annotations.h"

#include "core/store/elements_db/sqlite_handle.h"

namespace snapscope {

std::vector<AnnotationRecord> read_db_annotations(const std::string& path) {
  SqliteDatabase db(path, SqliteDatabase::Mode::ReadOnly);
  SqliteStatement query = db.prepare("SELECT stage, name, device, time_us FROM annotations ORDER BY id");
  std::vector<AnnotationRecord> records;
  while (query.next_row()) {
    records.push_back({query.column_text(0), query.column_text(1), query.column_int(2),
                       query.column_is_null(3) ? kNoTime : query.column_int(3)});
  }
  return records;
}

}  // namespace snapscope
