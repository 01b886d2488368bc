// Runs two independent pieces of work at once: one on a short-lived thread, one on the caller's.
// Exceptions cross back to the caller; when both throw, the caller's own work's wins, so the
// error reported is the one a sequential main-then-side run would have met first.
#pragma once

#include <exception>
#include <thread>
#include <utility>

namespace snapscope {

template <class Side, class Main>
void run_beside(Side&& side, Main&& main) {
  std::exception_ptr side_error, main_error;
  std::thread worker([&] {
    try {
      std::forward<Side>(side)();
    } catch (...) {
      side_error = std::current_exception();
    }
  });
  try {
    std::forward<Main>(main)();
  } catch (...) {
    main_error = std::current_exception();
  }
  worker.join();  // before anything leaves: the side work refers to the caller's data
  if (main_error) std::rethrow_exception(main_error);
  if (side_error) std::rethrow_exception(side_error);
}

}  // namespace snapscope
