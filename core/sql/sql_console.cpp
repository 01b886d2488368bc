#include "core/sql/sql_console.h"

namespace snapscope {

SqlConsole::SqlConsole(const std::string& db_path) : sql_(db_path) {}

SqlConsole::~SqlConsole() {
  cancel();
  join();
}

bool SqlConsole::start(const std::string& sql, size_t row_cap) {
  if (running_) return false;
  join();
  history_.add(sql);
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  running_ = true;
  worker_ = std::thread([this, sql, row_cap, cancel = cancel_] {
    SqlResult result = sql_.run(sql, *cancel, row_cap);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      result_ = std::move(result);
    }
    running_ = false;
  });
  return true;
}

void SqlConsole::cancel() {
  if (!running_ || !cancel_) return;
  *cancel_ = true;
  sql_.interrupt();
}

std::optional<SqlResult> SqlConsole::take_result() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::optional<SqlResult> out = std::move(result_);
  result_.reset();
  return out;
}

void SqlConsole::wait() { join(); }

void SqlConsole::join() {
  if (worker_.joinable()) worker_.join();
}

}  // namespace snapscope
