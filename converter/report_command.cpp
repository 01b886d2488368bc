#include "converter/report_command.h"

#include "converter/subcommand.h"

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "converter/source_findings.h"
#include "core/allocator/allocator_settings.h"
#include "core/analysis/annotation_pairing.h"
#include "core/analysis/live_elements.h"
#include "core/analysis/module_tree.h"
#include "core/analysis/moment_table.h"
#include "core/analysis/phase_table.h"
#include "core/analysis/state_mapping.h"
#include "core/classify/category_evidence.h"
#include "core/export/export_common.h"
#include "core/export/export_source.h"
#include "core/findings/finding_text.h"
#include "core/store/elements_db/elements_db_reader.h"
#include "core/util/format.h"
#include "core/util/printable.h"

namespace snapscope {

namespace {

struct ReportOptions {
  std::optional<int64_t> at_event;  // empty: at the peak
  int device = -1;
  size_t top = 20;
  LocationRule location = LocationRule::FirstUserFrame;
  bool by_category = false;
  bool by_module = false;
  bool findings = false;
  std::string rules_file;
  std::string input;
};

void set_grouping(ReportOptions& options, std::string_view value) {
  if (value != "location" && value != "category" && value != "module")
    throw UsageError("--by needs 'location', 'category' or 'module', got '" + std::string(value) + "'");
  options.by_category = value == "category";
  options.by_module = value == "module";
}

constexpr std::string_view kReportSynopsis =
    "usage: snapscope-convert --report [--at peak|EVENT] [--device N] [--top N] [--location user|shown]\n"
    "                         [--by location|category|module] [--findings] [--rules FILE] IN.pickle|DIR\n";

ArgTable report_table(ReportOptions& o) {
  return {
      .synopsis = kReportSynopsis,
      .positionals = {{"IN.pickle|DIR", "", 1, 1, [&o](std::string_view path) { o.input = path; },
                       "no input given"}},
      .options =
          {subcommand::at_event_option(o.at_event,
                                       "the moment to analyse: the block timeline's peak (default) or the "
                                       "state right after raw trace "
                                       "event EVENT"),
           subcommand::device_option(o.device,
                                     "device index (default: the first device with a trace or segments)"),
           subcommand::top_option(
               o.top,
               "moment-table rows to show before folding the rest into one row, and phase names to list "
               "(repeated names are one row, 'name \u00d7N') (default 20, 0 = all)"),
           subcommand::location_option(
               o.location,
               "how rows are grouped: 'user' (default) the innermost user frame, or for stacks without one "
               "(backward pass, C++ only) the autograd node or ATen operator; 'shown' the innermost frame "
               "the "
               "frame filter keeps (memory_viz's literal rule)"),
           {{"--by"},
            "GROUPING",
            "group the moment table by 'location' (default) or by 'category' (parameter, gradient, "
            "optimizer state, activation, temporary, autograd / workspace, unknown) or by 'module': the tree "
            "of nn.Module calls (forward, call site, [k]-th call), backward, outside any module, untraced "
            "(--top rows)",
            [&o](std::string_view value) { set_grouping(o, value); }},
           flag_option(
               "--findings",
               "also print the findings: the peak, OOM forensics, step growth, leak candidates and recording "
               "caveats",
               o.findings),
           text_option({"--rules"}, "FILE",
                       "a category rules file (docs/RULES.md) tried before the built-in evidence",
                       o.rules_file)},
  };
}

std::string device_list(const std::vector<int>& devices) {
  std::string text;
  for (int device : devices) text += (text.empty() ? "" : ", ") + std::to_string(device);
  return text;
}

std::string bytes_text(uint64_t bytes) {
  return format_bytes(double(bytes)) + " (" + format_bytes_exact(bytes) + ")";
}

// Event numbers, as the viewer's status bar, tree header and inspector say it.
std::string moment_text(const Timeline& timeline, size_t state) {
  const int64_t event = event_of_state(timeline, state);
  return event < 0 ? std::string("the start (before any event)") : "event #" + std::to_string(event);
}

// (key, JSON text) rows of the snapshot's allocator_settings, from the pickle or elements.db.
std::vector<std::pair<std::string, std::string>> raw_allocator_settings(const AnalysisSource& input) {
  std::vector<std::pair<std::string, std::string>> raw;
  if (input.snapshot != nullptr) {
    const nlohmann::json& settings = *input.snapshot->allocator_settings;
    if (settings.is_object()) {
      for (const auto& [key, value] : settings.items()) raw.emplace_back(key, value.dump());
    }
  } else if (!input.elements_db.empty()) {
    raw = ElementsDbReader(input.elements_db).allocator_settings();
  }
  return raw;
}

std::string summary_text(const AnalysisSource& input) {
  const Timeline& timeline = *input.blocks;
  size_t pre_existing = 0;
  for (const ReplayElement& element : timeline.input().elements)
    pre_existing += element.origin != Origin::Traced;
  std::string text = "file:          " + input.file + "\n";
  text +=
      "device:        " + std::to_string(input.device) + " (devices: " + device_list(input.devices) + ")\n";
  if (input.raw_events) text += "events:        " + format_grouped(*input.raw_events) + "\n";
  text += "allocations:   " + format_grouped(timeline.element_count()) + " (" + format_grouped(pre_existing) +
          " pre-existing), " + format_grouped(timeline.action_count()) + " alloc/free actions\n";
  text += "peak:          " + bytes_text(timeline.peak_bytes()) + " at " +
          moment_text(timeline, peak_state(timeline)) + "\n";
  text += "initial/final: " + format_bytes(double(timeline.total_at_state(0))) + " / " +
          format_bytes(double(timeline.total_at_state(timeline.action_count()))) + "\n";
  text += "allocator:     " +
          allocator_settings_line(describe_allocator_settings(raw_allocator_settings(input))) + "\n";
  return text;
}

std::string report_text(const ReportOptions& options, const AnalysisSource& input,
                        const Classification& classification) {
  const Timeline& timeline = *input.blocks;
  const size_t state = resolve_moment(input, options.at_event);
  LocationIndex locations(*input.stacks, options.location);
  const std::vector<LiveElement> live = live_elements(timeline, state);
  const MomentTable moment = options.by_category ? category_moment_table(live, classification, state)
                                                 : build_moment_table(live, locations, state);

  std::string text = summary_text(input) + "\n";
  text += "live memory at " + moment_text(timeline, state) + ": " + bytes_text(moment.live_bytes) + " in " +
          format_grouped(live.size()) + " allocations\n";
  text += "by category:   " +
          category_breakdown(classification.names, category_bytes_at(classification, timeline, state)) +
          "\n\n";
  const GroupNames group = options.by_category ? GroupNames{"Category", "categories"} : GroupNames{};
  if (options.by_module) {
    const ModuleInstances modules = export_module_instances(export_input(input));
    text += module_tree_text(build_module_tree(live, modules, state), options.top) + "\n";
  } else {
    text += moment_table_text(moment, options.top, group) + "\n";
  }
  if (options.by_category) {
    text += "evidence (certain: the allocation's own stack or lifetime says it; likely: inferred):\n" +
            category_evidence_text(classification, category_evidence_at(classification, timeline, state)) +
            "\n";
  }
  const PhaseTable phases = build_phase_table(timeline, pair_annotations(input.annotations, input.device));
  text += "phases (annotations on device " + std::to_string(input.device) + "):\n" +
          phase_table_text(phases, options.top);
  if (options.findings) text += "\nfindings:\n" + findings_text(source_findings(input, classification));
  return text;
}

}  // namespace

ArgTable report_arg_table() {
  static ReportOptions unused;  // the table is read, never parsed into
  return report_table(unused);
}

std::string report_usage() { return help_text(report_arg_table()); }

int run_report(std::span<const std::string_view> args, std::FILE* out, std::FILE* err) {
  const auto run_parsed = [out](const ReportOptions& options) {
    SourceOptions source_options;
    source_options.device = options.device;
    source_options.with_segments = false;  // the report shows block totals only
    const std::optional<CategoryRules> rules =
        options.rules_file.empty() ? std::nullopt : std::optional(load_category_rules(options.rules_file));
    const AnalysisSource input = load_analysis_source(options.input, source_options);
    const Classification classification = classify_source(input, rules ? &*rules : nullptr);
    std::fputs(printable_lines(report_text(options, input, classification)).c_str(), out);
    return 0;
  };
  const auto parse = [](std::span<const std::string_view> parsed) {
    return subcommand::parse_table(parsed, report_table);
  };
  return subcommand::run(args, out, err, report_usage(), parse, run_parsed,
                         [](const ReportOptions& options) { return options.input; });
}

}  // namespace snapscope
