// Waiting on a Session without waiting for its database, and its findings as comparable text:
// for the tests of a cold open's early categories (unit and conformance).
#pragma once

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "core/session/session.h"

namespace snapscope::test {

// Polls until the session's categories are there (false after `limit`), whether or not its
// database has landed.
inline bool poll_for_categories(Session& session, std::chrono::seconds limit = std::chrono::seconds(120)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (session.categories() == nullptr && std::chrono::steady_clock::now() < deadline) {
    session.poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return session.categories() != nullptr;
}

// Each finding's title and text, one string per finding.
inline std::vector<std::string> finding_lines(const std::vector<Finding>& findings) {
  std::vector<std::string> lines;
  for (const Finding& finding : findings) lines.push_back(finding.title + "\n" + finding.text);
  return lines;
}

}  // namespace snapscope::test
