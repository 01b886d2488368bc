// Times the analysis views at several states of one snapshot: live set, moment table and the
// call trees, each with cold caches (a fresh LocationIndex / tree builder, as on the first
// click) and the moment table again with warm ones (as when scrubbing).
//
//   bench_analysis FILE.pickle [--device N] [--states K] [--stress LIVE]
// --stress also times a synthetic state with LIVE allocations spread over the file's stacks
// (generated traces keep only a few hundred allocations live at once).
//   e.g. snapscope-gen --events 10000000 -o /tmp/gen10m.pickle; bench_analysis /tmp/gen10m.pickle
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "core/analysis/call_tree.h"
#include "core/analysis/live_elements.h"
#include "core/analysis/moment_table.h"
#include "core/analysis/snapshot_stack_source.h"
#include "core/analysis/state_mapping.h"
#include "core/snapshot/snapshot_reader.h"

using namespace snapscope;

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

template <typename F>
double timed_ms(F&& work) {
  const Clock::time_point start = Clock::now();
  work();
  return ms_since(start);
}

struct Options {
  std::string input;
  int device = 0;
  size_t states = 8;
  size_t stress_live = 0;
};

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--device" && i + 1 < argc) {
      options.device = std::stoi(argv[++i]);
    } else if (arg == "--stress" && i + 1 < argc) {
      options.stress_live = std::stoul(argv[++i]);
    } else if (arg == "--states" && i + 1 < argc) {
      options.states = std::stoul(argv[++i]);
    } else {
      options.input = arg;
    }
  }
  if (options.input.empty())
    throw std::invalid_argument("usage: bench_analysis FILE.pickle [--device N] [--states K]");
  return options;
}

// The peak, then evenly spaced states across the trace.
std::vector<size_t> bench_states(const Timeline& timeline, size_t count) {
  std::vector<size_t> states = {peak_state(timeline)};
  for (size_t i = 1; i <= count; ++i) states.push_back(timeline.action_count() * i / (count + 1));
  return states;
}

void bench_state(const Snapshot& snapshot, const Timeline& timeline, size_t state, LocationIndex& warm) {
  const SnapshotStackSource source(snapshot);
  std::vector<LiveElement> live;
  const double live_ms = timed_ms([&] { live = live_elements(timeline, state); });
  size_t rows = 0, nodes = 0;
  const double cold_ms = timed_ms([&] {
    LocationIndex locations(source, LocationRule::FirstUserFrame);
    rows = build_moment_table(live, locations, state).rows.size();
  });
  const double warm_ms = timed_ms([&] { build_moment_table(live, warm, state); });
  const double top_down_ms = timed_ms([&] { nodes = build_call_tree(live, source).size(); });
  const double bottom_up_ms = timed_ms([&] {
    build_call_tree(live, source, {TreeDirection::BottomUp, true});
  });
  const double unfiltered_ms = timed_ms([&] {
    build_call_tree(live, source, {TreeDirection::TopDown, false});
  });
  std::printf("%10zu %9zu %8.1f %8.1f %8.1f %9.1f %9.1f %10.1f %8.1f %6zu %7zu\n", state, live.size(),
              live_ms, cold_ms, warm_ms, top_down_ms, bottom_up_ms, unfiltered_ms,
              live_ms + cold_ms + top_down_ms, rows, nodes);
}

// `live` allocations, all live after the last action, cycling through every stack of the file.
Timeline stress_timeline(const Snapshot& snapshot, size_t live) {
  ReplayInput input;
  for (size_t i = 0; i < live; ++i) {
    ReplayElement element;
    element.size = 512 * (1 + i % 4096);
    element.stack = static_cast<StackId>(i % snapshot.stacks.size());
    element.alloc_event = static_cast<EventIndex>(i);
    input.elements.push_back(element);
    input.actions.push_back({static_cast<uint32_t>(i)});
  }
  return Timeline(std::move(input));
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options options = parse(argc, argv);
    Clock::time_point start = Clock::now();
    ReadOptions read;
    read.only_device = options.device;
    const Snapshot snapshot = read_snapshot(options.input, read);
    std::printf("read %s: %.0f ms, %zu frames, %zu stacks\n", options.input.c_str(), ms_since(start),
                snapshot.frames.size(), snapshot.stacks.size());
    start = Clock::now();
    const Timeline timeline(derive_replay_input(snapshot, options.device, TimelineKind::Blocks));
    std::printf("timeline: %.0f ms, %zu actions, %zu elements\n\n", ms_since(start), timeline.action_count(),
                timeline.element_count());
    std::printf("%10s %9s %8s %8s %8s %9s %9s %10s %8s %6s %7s\n", "state", "live", "live_ms", "table_ms",
                "warm_ms", "tree_ms", "bottomup", "unfiltered", "total_ms", "rows", "nodes");
    const SnapshotStackSource source(snapshot);
    LocationIndex warm(source, LocationRule::FirstUserFrame);
    for (size_t state : bench_states(timeline, options.states)) bench_state(snapshot, timeline, state, warm);
    if (options.stress_live > 0) {
      const Timeline stress = stress_timeline(snapshot, options.stress_live);
      std::printf("stress: %zu live allocations over %zu stacks\n", options.stress_live,
                  snapshot.stacks.size());
      LocationIndex stress_warm(source, LocationRule::FirstUserFrame);
      bench_state(snapshot, stress, stress.action_count(), stress_warm);
    }
    std::printf("\ntotal_ms = live set + moment table (cold) + filtered top-down tree\n");
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "bench_analysis: %s\n", error.what());
    return 1;
  }
}
