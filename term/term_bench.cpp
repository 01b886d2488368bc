#include "term/term_bench.h"

#include <curses.h>

#include <chrono>
#include <cstdio>
#include <initializer_list>
#include <thread>

#include "core/util/bench_measure.h"
#include "term/term_app.h"

namespace snapscope::term {

std::span<const int> bench_keys() {
  static const std::vector<int> keys = [] {
    std::vector<int> walk;
    const auto repeat = [&walk](int key, int times) { walk.insert(walk.end(), times, key); };
    repeat(KEY_RIGHT, 10);
    repeat(KEY_LEFT, 5);
    for (int key : std::initializer_list<int>{'f', 'b', 'f', '+', '+', '+', '-', '0', 'p', KEY_END, KEY_HOME,
                                              'p', KEY_UP, KEY_DOWN, 'r', 'R', 'R'})
      walk.push_back(key);
    // Each pane: Tab gives it the keys, then a walk through its rows, Tab back to the chart.
    for (int pane : {'1', '2', '3', '4', '5', '6'}) {
      walk.push_back(pane);
      walk.push_back('\t');
      repeat(KEY_DOWN, 5);
      for (int key : std::initializer_list<int>{'\n', KEY_RIGHT, KEY_LEFT, 'e', 'c', KEY_NPAGE, KEY_PPAGE})
        walk.push_back(key);
      walk.push_back('\t');
      repeat(KEY_RIGHT, 3);
    }
    return walk;
  }();
  return keys;
}

std::string bench_summary(const KeyTimings& timings) {
  char line[512];
  std::snprintf(line, sizeof line,
                "summary: allocations=%zu keys=%zu first_screen_ms=%.0f settled_ms=%.0f key_median_ms=%.1f "
                "key_p95_ms=%.1f key_max_ms=%.1f settle_median_ms=%.1f settle_p95_ms=%.1f settle_max_ms=%.1f "
                "db_writing_at_first_screen=%s\n",
                timings.allocations, timings.key_ms.size(), timings.first_screen_ms, timings.settled_ms,
                percentile(timings.key_ms, 0.5), percentile(timings.key_ms, 0.95),
                percentile(timings.key_ms, 1.0), percentile(timings.settle_ms, 0.5),
                percentile(timings.settle_ms, 0.95), percentile(timings.settle_ms, 1.0),
                timings.database_writing_at_first_screen ? "yes" : "no");
  std::string text = line;
  if (!timings.load_steps.empty())
    text += "load steps (seconds since the load began):\n" + timings.load_steps;
  return text;
}

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point since) {
  return std::chrono::duration<double, std::milli>(Clock::now() - since).count();
}

// A walk that never settles (a stuck task) still ends.
constexpr auto kSettleLimit = std::chrono::seconds(60);

}  // namespace

bool TermApp::settled() const {
  const bool cursor_answered =
      !a_->cursor.placed() || (a_->analysis() && a_->analysis()->state == a_->cursor.state());
  return a_->settled() && (!compared_ || compared_->settled()) && cursor_answered;
}

// Polls and draws (only when something arrived, as run() does) until every session is settled.
void TermApp::wait_settled() {
  const Clock::time_point start = Clock::now();
  while (!settled() && Clock::now() - start < kSettleLimit && !Terminal::interrupted()) {
    if (poll()) draw();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  poll();
  draw();
}

KeyTimings TermApp::run_bench() {
  KeyTimings timings;
  poll();
  draw();
  timings.first_screen_ms = process_age_ms();
  timings.database_writing_at_first_screen = a_->database_writing();
  wait_settled();
  timings.settled_ms = process_age_ms();
  if (!loaders_.empty()) timings.load_steps = loaders_.front()->progress().stages.format();
  timings.allocations = a_->timeline() ? a_->timeline()->element_count() : 0;
  for (const int key : bench_keys()) {
    if (Terminal::interrupted()) break;
    const Clock::time_point pressed = Clock::now();
    handle(key);
    poll();
    draw();
    timings.key_ms.push_back(ms_since(pressed));
    wait_settled();
    timings.settle_ms.push_back(ms_since(pressed));
  }
  return timings;
}

}  // namespace snapscope::term
