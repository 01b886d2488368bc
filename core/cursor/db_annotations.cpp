#include "core/cursor/db_annotations.h"

#include <stdexcept>

#include "core/snapshot/snapshot_reader.h"
#include "core/store/sqlite_handle.h"

namespace snapscope {

std::vector<AnnotationRecord> annotations_from_elements_db(const std::string& path) {
  try {
    SqliteDatabase db(path, SqliteDatabase::Mode::ReadOnly);
    SqliteStatement rows = db.prepare("SELECT stage, name, device, time_us FROM annotations ORDER BY id");
    std::vector<AnnotationRecord> records;
    while (rows.next_row()) {
      records.push_back({rows.column_text(0), rows.column_text(1), rows.column_int(2),
                         rows.column_is_null(3) ? kNoTime : rows.column_int(3)});
    }
    return records;
  } catch (const InputError&) {
    throw;
  } catch (const std::runtime_error& failure) {
    throw InputError(failure.what());
  }
}

}  // namespace snapscope
