// Times what "colour by category" costs: classifying every allocation (the budget: 0.5 s
// at 10M allocations on 2 cores), building the category totals index, one redraw's worth of the
// stacked-area strip (1920 columns over the whole trace), and the findings.
//
//   bench_categories IN.pickle|CONVERTED_DIR [--device N] [--rules FILE]
//   e.g. bench_categories /tmp/snapscope-bench/out-30600000ev
// With --rules, also the classification with that user rules file (compiled once: the work grows
// with the rules times the distinct frames, not times every frame of every stack).
#include <chrono>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "core/classify/category_rules.h"
#include "core/classify/category_timeline.h"
#include "core/classify/classifier.h"
#include "core/export/export_source.h"
#include "core/findings/findings.h"

using namespace snapscope;

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The strip's work for one redraw: the state shown at each column, then its category bytes.
double strip_ms(const Timeline& timeline, const CategoryTimeline& totals, int columns) {
  const Clock::time_point start = Clock::now();
  std::vector<uint64_t> bytes;
  uint64_t checksum = 0;
  for (int column = 0; column < columns; ++column) {
    const double steps = static_cast<double>(timeline.timesteps());
    const auto step = static_cast<uint64_t>((column + 0.5) * steps / columns);
    const size_t action = timeline.action_at_step(std::min<uint64_t>(step, timeline.timesteps() - 1));
    totals.bytes_at(action + 1, bytes);
    checksum += bytes.front();
  }
  const double ms = ms_since(start);
  std::printf("(checksum %llu)\n", static_cast<unsigned long long>(checksum % 1000));
  return ms;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    SourceOptions options;
    options.with_segments = false;
    std::string input, rules_file;
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--device" && i + 1 < argc) {
        options.device = std::stoi(argv[++i]);
      } else if (arg == "--rules" && i + 1 < argc) {
        rules_file = argv[++i];
      } else {
        input = arg;
      }
    }
    Clock::time_point start = Clock::now();
    const AnalysisSource source = load_analysis_source(input, options);
    const Timeline& timeline = *source.blocks;
    std::printf("load %s: %.0f ms, %zu allocations, %zu actions\n", input.c_str(), ms_since(start),
                timeline.element_count(), timeline.action_count());
    // Stack lookups of the elements.db source are cached per stack; the viewer's catalog is warm.
    start = Clock::now();
    const Classification classification =
        classify_allocations({timeline, *source.stacks, source.annotations});
    std::printf("classify:          %8.0f ms\n", ms_since(start));
    start = Clock::now();
    const Classification again = classify_allocations({timeline, *source.stacks, source.annotations});
    std::printf("classify (warm):   %8.0f ms\n", ms_since(start));
    if (!rules_file.empty()) {
      const CategoryRules rules = load_category_rules(rules_file);
      start = Clock::now();
      const Classification ruled =
          classify_allocations({timeline, *source.stacks, source.annotations, &rules});
      std::printf("classify + rules:  %8.0f ms (%zu rules)\n", ms_since(start), rules.rules.size());
    }
    start = Clock::now();
    const CategoryTimeline totals(timeline, again);
    std::printf("category totals:   %8.0f ms, %.1f MB\n", ms_since(start),
                double(totals.memory_bytes()) / 1e6);
    const double strip = strip_ms(timeline, totals, 1920);
    std::printf("strip, 1920 cols:  %8.1f ms\n", strip);
    start = Clock::now();
    const std::vector<Finding> findings =
        find_findings({timeline, again, *source.stacks, nullptr, std::nullopt});
    std::printf("findings:          %8.0f ms (%zu)\n", ms_since(start), findings.size());
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "bench_categories: %s\n", error.what());
    return 1;
  }
}
