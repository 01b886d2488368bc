#include "converter/diff_command.h"

#include "converter/source_findings.h"
#include "converter/subcommand.h"

#include <charconv>
#include <cmath>
#include <optional>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "core/analysis/live_elements.h"
#include "core/analysis/moment_table.h"
#include "core/analysis/state_mapping.h"
#include "core/analysis/state_peaks.h"
#include "core/compare/call_tree_diff.h"
#include "core/compare/moment_diff.h"
#include "core/compare/run_alignment.h"
#include "core/cursor/cursor_readout.h"
#include "core/export/export_source.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/util/format.h"
#include "core/util/printable.h"

namespace snapscope {

namespace {

struct DiffOptions {
  std::string input_a, input_b;
  std::optional<int64_t> at_a, at_b;  // empty: the peak (of step_index's step, when given)
  std::optional<size_t> step_index;   // --at step:N: each run's peak inside its N-th step
  int device = -1;
  size_t top = 20;
  LocationRule location = LocationRule::FirstUserFrame;
  enum class Output : uint8_t { Text, Json, Csv };
  Output output = Output::Text;
  std::optional<double> fail_growth_percent;
};

double parse_percent(std::string_view text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value) || value < 0)
    throw UsageError("--fail-if-peak-grows needs a non-negative number, got '" + std::string(text) + "'");
  return value;
}

void parse_at(std::string_view value, DiffOptions& options) {
  if (value == "peak") return;
  if (value.starts_with("step:")) {
    options.step_index = static_cast<size_t>(parse_non_negative(value.substr(5), "--at step:"));
    return;
  }
  const size_t comma = value.find(',');
  options.at_a = parse_non_negative(value.substr(0, comma), "--at");
  options.at_b =
      comma == std::string_view::npos ? options.at_a : parse_non_negative(value.substr(comma + 1), "--at");
}

DiffOptions::Output parse_output(std::string_view kind) {
  if (kind != "json" && kind != "csv") throw UsageError("--summary needs 'json' or 'csv'");
  return kind == "json" ? DiffOptions::Output::Json : DiffOptions::Output::Csv;
}

constexpr std::string_view kDiffSynopsis =
    "usage: snapscope-convert --diff A B [--at peak|EVENT[,EVENT]|step:N] [--device N] [--top N]\n"
    "                         [--location user|shown] [--summary json|csv] [--fail-if-peak-grows PCT]\n";

ArgTable diff_table(DiffOptions& o) {
  constexpr const char* kTwoInputs = "--diff needs two inputs, A and B";
  return {
      .synopsis = kDiffSynopsis,
      .positionals = {{"A", "the run before: a snapshot pickle or a converted directory", 1, 1,
                       [&o](std::string_view path) { o.input_a = path; }, kTwoInputs},
                      {"B", "the run after, the same kinds", 1, 1,
                       [&o](std::string_view path) { o.input_b = path; }, kTwoInputs}},
      .options =
          {{{"--at"},
            "MOMENT",
            "the moments compared: each one's peak (default), the state after raw event EVENT in both, "
            "EVENT_A,EVENT_B, or step:N: each one's peak inside its N-th step (from 0; steps are the ranges "
            "of its most repeated annotation, e.g. ProfilerStep#k)",
            [&o](std::string_view value) { parse_at(value, o); }},
           subcommand::device_option(o.device,
                                     "device index in both (default: each one's first device with a trace)"),
           subcommand::top_option(
               o.top,
               "rows of every section (locations, categories, call paths) before the rest is folded into one "
               "line (default 20, 0 = all; text only)"),
           subcommand::location_option(o.location, "how rows are grouped, as in --report"),
           {{"--summary"},
            "json|csv",
            "json: print JSON instead of text: peak_a, peak_b, peak_delta, rows (location, bytes_a, bytes_b, "
            "delta, ...), category_rows (the same by category) and tree_rows (by top-down call path: the "
            "paths that changed by >= 1 % of live memory)\n"
            "csv: print the location and category rows as CSV: grouping,label,bytes_a,bytes_b,delta,"
            "count_a,count_b,status",
            [&o](std::string_view value) { o.output = parse_output(value); }},
           {{"--fail-if-peak-grows"},
            "PCT",
            "exit 3 when B's peak exceeds A's by more than PCT per cent",
            [&o](std::string_view value) { o.fail_growth_percent = parse_percent(value); }}},
      .epilogue =
          "exit codes: 0 done, 1 bad input, 2 usage error, 3 the peak grew past --fail-if-peak-grows\n",
      .extra_positional =
          [](std::string_view arg) { return unexpected_argument(arg) + " (--diff takes two inputs)"; },
  };
}

// One side of the comparison: its peaks and the moment table at the chosen state.
struct Side {
  AnalysisSource source;
  size_t state = 0;
  int64_t event = -1;
  MomentTable moment;
  MomentTable categories;        // the same moment by category (core/classify)
  std::optional<CallTree> tree;  // the same moment as a top-down call tree (filtered frames)
  uint64_t reserved_bytes = 0;   // reserved at the compared moment (0: no segment information)
};

// 1 - allocated / reserved at the compared moment; empty without segment information.
std::optional<double> fragmentation_of(const Side& side) {
  if (side.reserved_bytes == 0) return std::nullopt;
  return 1.0 - static_cast<double>(side.moment.live_bytes) / static_cast<double>(side.reserved_bytes);
}

// The peak inside the run's `index`-th step (step_ranges: its most repeated annotation).
size_t peak_of_step(const AnalysisSource& source, size_t index) {
  const auto steps = step_ranges(*source.blocks, source.annotations);
  if (steps.empty())
    throw InputError(source.file +
                     ": no repeated annotation (ProfilerStep#k, Optimizer.step...) to count steps by");
  if (index >= steps.size())
    throw InputError(source.file + ": no step " + std::to_string(index) + " (it has " +
                     std::to_string(steps.size()) + ", counted from 0)");
  return StatePeaks(*source.blocks).max_in(steps[index].first, steps[index].second).state;
}

Side load_side(const std::string& path, const DiffOptions& options, std::optional<int64_t> at) {
  SourceOptions source_options;
  source_options.device = options.device;
  source_options.with_segments = true;  // the reserved peak
  Side side;
  side.source = load_analysis_source(path, source_options);
  const Timeline& timeline = *side.source.blocks;
  side.state =
      options.step_index ? peak_of_step(side.source, *options.step_index) : resolve_moment(side.source, at);
  side.event = event_of_state(timeline, side.state);
  LocationIndex locations(*side.source.stacks, options.location);
  const std::vector<LiveElement> live = live_elements(timeline, side.state);
  side.moment = build_moment_table(live, locations, side.state);
  side.tree = build_call_tree(live, *side.source.stacks);
  const Classification classification = classify_source(side.source, nullptr);
  side.categories = category_moment_table(live, classification, side.state);
  side.reserved_bytes = read_cursor(timeline, timeline, side.source.reserved, side.state).reserved_bytes;
  return side;
}

uint64_t peak_of(const Side& side) { return side.source.blocks->peak_bytes(); }
uint64_t reserved_peak_of(const Side& side) { return side.source.reserved.peak(); }

std::string event_text(int64_t event) {
  return event < 0 ? std::string("the start") : "event #" + std::to_string(event);
}

std::string percent_text(double percent) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.2f %%", percent);
  return text;
}

std::string fragmentation_text(const Side& side) {
  const auto fragmentation = fragmentation_of(side);
  if (!fragmentation) return "n/a";
  char text[16];
  std::snprintf(text, sizeof text, "%.1f %%", 100.0 * *fragmentation);
  return text;
}

// The call-path rows worth reading: paths whose bytes changed by at least 1 % of the larger live
// total (and their callers, for context), down to kTreeDepth levels.
constexpr uint32_t kTreeDepth = 32;
uint64_t tree_min_delta(const MomentDiff& diff) {
  return std::max<uint64_t>(1, std::max(diff.live_a, diff.live_b) / 100);
}

CallTreeDiff tree_diff_of(const Side& a, const Side& b) {
  return diff_call_trees(*a.tree, *a.source.stacks, *b.tree, *b.source.stacks);
}

std::string diff_text(const DiffOptions& options, const Side& a, const Side& b, const MomentDiff& diff) {
  const auto side_line = [](const char* name, const Side& side) {
    const Timeline& timeline = *side.source.blocks;
    return std::string(name) + ": " + side.source.file + " (device " + std::to_string(side.source.device) +
           "): peak " + format_bytes(static_cast<double>(timeline.peak_bytes())) + " at " +
           event_text(event_of_state(timeline, peak_state(timeline))) + ", reserved peak " +
           format_bytes(static_cast<double>(reserved_peak_of(side))) + "\n";
  };
  const int64_t peak_delta = static_cast<int64_t>(peak_of(b)) - static_cast<int64_t>(peak_of(a));
  std::string text = side_line("A", a) + side_line("B", b);
  text += "peak delta:     " + format_signed_bytes(peak_delta) + " (" +
          percent_text(growth_percent(peak_of(a), peak_of(b))) + ")\n";
  const int64_t reserved_delta =
      static_cast<int64_t>(reserved_peak_of(b)) - static_cast<int64_t>(reserved_peak_of(a));
  text += "reserved delta: " + format_signed_bytes(reserved_delta) + "\n\n";
  text += "live memory, A at " + event_text(a.event) + " vs B at " + event_text(b.event) + ": " +
          format_bytes(static_cast<double>(diff.live_a)) + " -> " +
          format_bytes(static_cast<double>(diff.live_b)) + " (" + format_signed_bytes(diff.delta()) + ")\n";
  text += "reserved there: " + format_bytes(static_cast<double>(a.reserved_bytes)) + " -> " +
          format_bytes(static_cast<double>(b.reserved_bytes)) + ", fragmentation " + fragmentation_text(a) +
          " -> " + fragmentation_text(b) + "\n\n";
  text += moment_diff_text(diff, options.top);
  text += "\nby category:\n" +
          moment_diff_text(diff_moments(a.categories, b.categories), options.top, {"Category", "categories"});
  text += "\nby call path (changes of at least " + format_bytes(static_cast<double>(tree_min_delta(diff))) +
          ", with their callers):\n" +
          call_tree_diff_text(tree_diff_of(a, b), kTreeDepth, tree_min_delta(diff), options.top);
  return text;
}

nlohmann::json tree_rows_json(const CallTreeDiff& tree, uint64_t min_delta) {
  return call_tree_diff_rows_json(tree, significant_nodes(tree, kTreeDepth, min_delta));
}

nlohmann::json rows_json(const MomentDiff& diff, const char* key) {
  nlohmann::json rows = nlohmann::json::array();
  for (const DiffRow& row : diff.rows) {
    rows.push_back({{key, row.location},
                    {"bytes_a", row.bytes_a},
                    {"bytes_b", row.bytes_b},
                    {"delta", row.delta()},
                    {"count_a", row.count_a},
                    {"count_b", row.count_b},
                    {"status", row.status == DiffStatus::Both ? "both" : diff_status_name(row.status)}});
  }
  return rows;
}

nlohmann::json diff_json(const Side& a, const Side& b, const MomentDiff& diff) {
  const auto side_json = [](const Side& side) {
    return nlohmann::json{{"file", side.source.file},
                          {"device", side.source.device},
                          {"event", side.event},
                          {"live_bytes", side.moment.live_bytes},
                          {"reserved_bytes", side.reserved_bytes},
                          {"fragmentation", fragmentation_of(side) ? nlohmann::json(*fragmentation_of(side))
                                                                   : nlohmann::json(nullptr)},
                          {"reserved_peak", reserved_peak_of(side)}};
  };
  return {{"peak_a", peak_of(a)},
          {"peak_b", peak_of(b)},
          {"peak_delta", static_cast<int64_t>(peak_of(b)) - static_cast<int64_t>(peak_of(a))},
          {"peak_growth_percent", growth_percent(peak_of(a), peak_of(b))},
          {"a", side_json(a)},
          {"b", side_json(b)},
          {"live_delta", diff.delta()},
          {"rows", rows_json(diff, "location")},
          {"category_rows", rows_json(diff_moments(a.categories, b.categories), "category")},
          {"tree_rows", tree_rows_json(tree_diff_of(a, b), tree_min_delta(diff))}};
}

int run_parsed(const DiffOptions& options, std::FILE* out, std::FILE* err) {
  const Side a = load_side(options.input_a, options, options.at_a);
  const Side b = load_side(options.input_b, options, options.at_b);
  const MomentDiff diff = diff_moments(a.moment, b.moment);
  if (options.output == DiffOptions::Output::Json) {
    std::fprintf(out, "%s\n", diff_json(a, b, diff).dump(2).c_str());
  } else if (options.output == DiffOptions::Output::Csv) {
    const std::string csv = std::string(kMomentDiffCsvHeader) + moment_diff_csv_rows(diff, "location") +
                            moment_diff_csv_rows(diff_moments(a.categories, b.categories), "category");
    std::fputs(printable_lines(csv).c_str(), out);
  } else {
    std::fputs(printable_lines(diff_text(options, a, b, diff)).c_str(), out);
  }
  const double growth = growth_percent(peak_of(a), peak_of(b));
  if (options.fail_growth_percent && growth > *options.fail_growth_percent) {
    std::fprintf(err, "snapscope-convert: %s: peak grew %s over %s (limit %+.2f %%)\n",
                 options.input_b.c_str(), percent_text(growth).c_str(), options.input_a.c_str(),
                 *options.fail_growth_percent);
    return kExitPeakGrew;
  }
  return 0;
}

}  // namespace

ArgTable diff_arg_table() {
  static DiffOptions unused;  // the table is read, never parsed into
  return diff_table(unused);
}

std::string diff_usage() { return help_text(diff_arg_table()); }

int run_diff(std::span<const std::string_view> args, std::FILE* out, std::FILE* err) {
  const auto parse = [](std::span<const std::string_view> parsed) {
    return subcommand::parse_table(parsed, diff_table);
  };
  return subcommand::run(
      args, out, err, diff_usage(), parse,
      [out, err](const DiffOptions& options) { return run_parsed(options, out, err); },
      [](const DiffOptions& options) { return options.input_a + ", " + options.input_b; });
}

}  // namespace snapscope
