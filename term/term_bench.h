// snapscope-term --bench: the key-press latency the terminal front end promises (every key
// redraws in at most 50 ms, at 10M allocations too). Replays a fixed walk through the keys a user
// presses and times each in the real loop (handle, poll, draw to a real terminal), then how long
// the background answer (call tree, moment table, diff at the new cursor) took to reach the screen.
// tests/bench/run-bench runs it inside tmux and prints the table.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace snapscope::term {

struct KeyTimings {
  double first_screen_ms = 0;     // process start to the first drawn screen
  double settled_ms = 0;          // process start to every pane's data on screen
  std::vector<double> key_ms;     // per key: handle + poll + draw
  std::vector<double> settle_ms;  // per key: until the panes show the new cursor's answer
  size_t allocations = 0;
  bool database_writing_at_first_screen = false;  // the chart came before elements.db
  std::string load_steps;                         // the first file's LoadProgress::stages, once settled
};

// The walk: chart moves, zooms, peak, floor; then each pane with its own keys.
std::span<const int> bench_keys();

// "summary: keys=N key_median_ms=… key_p95_ms=… key_max_ms=… settle_median_ms=… …" (one line),
// then the load's steps, one per line.
std::string bench_summary(const KeyTimings& timings);

}  // namespace snapscope::term
