// Allocator state history on a converted snapshot: the backward pass over elements.db, then the
// cost of the state at random events (what moving the time cursor costs the allocator panel),
// and the usage strip's columns for a whole-trace view.
// Usage: bench_allocator CONVERTED_DIR [device] [queries]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>

#include "core/allocator/db_event_source.h"
#include "core/allocator/segment_layout.h"
#include "core/allocator/usage_curve.h"
#include "core/store/allocations_json/allocations_json.h"
#include "core/store/elements_db/elements_db_reader.h"

using namespace snapscope;

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CONVERTED_DIR [device] [queries]\n", argv[0]);
    return 2;
  }
  const std::string db = (std::filesystem::path(argv[1]) / "elements.db").string();
  const int device = argc > 2 ? std::atoi(argv[2]) : 0;
  const int queries = argc > 3 ? std::atoi(argv[3]) : 50;

  auto start = std::chrono::steady_clock::now();
  auto history = allocator_history_from_db(db, device);
  std::printf("events %zu  build %.0f ms  checkpoints %zu every %zu events  %.1f MiB\n",
              history->event_count(), ms_since(start), history->checkpoint_count(),
              history->checkpoint_interval(), static_cast<double>(history->memory_bytes()) / (1 << 20));

  std::mt19937_64 rng(7);
  double worst = 0, total = 0;
  size_t blocks = 0;
  for (int q = 0; q < queries; ++q) {
    const auto event = static_cast<int64_t>(rng() % history->event_count());
    start = std::chrono::steady_clock::now();
    const AllocatorState state = history->after_event(event);
    const SegmentLayout layout = layout_segments(state);
    const double ms = ms_since(start);
    blocks += layout.blocks.size();
    worst = std::max(worst, ms);
    total += ms;
  }
  std::printf("state + layout at %d random events: mean %.1f ms, worst %.1f ms (mean %zu blocks)\n", queries,
              total / queries, worst, blocks / static_cast<size_t>(std::max(1, queries)));

  AllocationsFile file = read_allocations_json(allocations_file_in(argv[1]).string());
  for (DeviceLayout& layout : file.devices) {
    if (layout.device != device) continue;
    const Timeline blocks_timeline(std::move(layout.blocks));
    const ReservedSeries reserved = read_reserved_series(ElementsDbReader(db), device);
    const UsageCurve curve(blocks_timeline, reserved);
    start = std::chrono::steady_clock::now();
    const auto columns =
        curve.columns(blocks_timeline, 0, static_cast<double>(blocks_timeline.timesteps()), 1920);
    std::printf("usage strip: %zu columns in %.2f ms\n", columns.size(), ms_since(start));
  }
  return 0;
}
