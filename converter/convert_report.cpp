#include "converter/convert_report.h"

#include <charconv>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/analysis/annotation_pairing.h"
#include "core/analysis/db_annotations.h"
#include "core/analysis/db_stack_source.h"
#include "core/analysis/live_elements.h"
#include "core/analysis/moment_table.h"
#include "core/analysis/phase_table.h"
#include "core/analysis/snapshot_stack_source.h"
#include "core/analysis/state_mapping.h"
#include "core/convert/convert.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/store/allocations_json.h"
#include "core/store/elements_db_check.h"
#include "core/view/format.h"

namespace snapscope {

const char* const kReportUsage =
    "usage: snapscope-convert --report [--at peak|EVENT] [--device N] [--top N] [--location user|shown]\n"
    "                         IN.pickle|DIR\n"
    "  --at      the moment to analyse: the block timeline's peak (default) or the state right\n"
    "            after raw trace event EVENT\n"
    "  --device  device index (default: the first device with a trace or segments)\n"
    "  --top     moment-table rows to show before folding the rest into one row (default 20, 0 = all)\n"
    "  --location  how rows are grouped: the innermost user Python frame (default), or the innermost\n"
    "            frame memory_viz shows (often the caching allocator itself)\n";

namespace {

constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

class ReportUsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ReportOptions {
  std::optional<int64_t> at_event;  // empty: at the peak
  int device = -1;
  size_t top = 20;
  LocationRule location = LocationRule::FirstUserFrame;
  std::string input;
};

// Everything the report reads, from either kind of input.
struct ReportInput {
  std::string file;
  int device = 0;
  std::vector<int> devices;
  std::optional<uint64_t> raw_events;  // known when reading a pickle
  std::unique_ptr<Snapshot> snapshot;  // pickle input only; the stack source points into it
  std::unique_ptr<StackSource> stacks;
  std::unique_ptr<Timeline> timeline;
  std::vector<AnnotationRecord> annotations;
};

int64_t parse_integer(std::string_view text, std::string_view option) {
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 0) {
    throw ReportUsageError(std::string(option) + " needs a non-negative integer, got '" + std::string(text) +
                           "'");
  }
  return value;
}

LocationRule parse_location_rule(std::string_view text) {
  if (text == "user") return LocationRule::FirstUserFrame;
  if (text == "shown") return LocationRule::FirstShownFrame;
  throw ReportUsageError("--location needs 'user' or 'shown', got '" + std::string(text) + "'");
}

ReportOptions parse_report_args(std::span<const std::string_view> args) {
  ReportOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    const bool takes_value = arg == "--at" || arg == "--device" || arg == "--top" || arg == "--location";
    if (takes_value && i + 1 == args.size()) throw ReportUsageError(std::string(arg) + " needs a value");
    if (arg == "--at") {
      const std::string_view value = args[++i];
      options.at_event = value == "peak" ? std::nullopt : std::optional(parse_integer(value, arg));
    } else if (arg == "--device") {
      options.device = static_cast<int>(parse_integer(args[++i], arg));
    } else if (arg == "--top") {
      options.top = static_cast<size_t>(parse_integer(args[++i], arg));
    } else if (arg == "--location") {
      options.location = parse_location_rule(args[++i]);
    } else if (arg.starts_with("-") || !options.input.empty()) {
      throw ReportUsageError("unexpected argument '" + std::string(arg) + "'");
    } else {
      options.input = arg;
    }
  }
  if (options.input.empty()) throw ReportUsageError("no input given");
  return options;
}

// Timeline reports an inconsistent replay input without knowing the file; name it here.
std::unique_ptr<Timeline> make_timeline(const std::string& file, ReplayInput replay) {
  try {
    return std::make_unique<Timeline>(std::move(replay));
  } catch (const std::invalid_argument& error) {
    throw InputError(file + ": " + error.what());
  }
}

// The requested device, or the first one the input offers.
int choose_device(const std::string& file, const std::vector<int>& devices, int requested) {
  if (devices.empty()) throw InputError(file + ": no device has a trace or segments");
  if (requested < 0) return devices.front();
  for (int device : devices) {
    if (device == requested) return device;
  }
  throw InputError(file + ": no device " + std::to_string(requested));
}

ReportInput load_pickle(const ReportOptions& options) {
  ReportInput input;
  input.file = options.input;
  ReadOptions read;
  read.only_device = options.device;
  input.snapshot = std::make_unique<Snapshot>(read_snapshot(options.input, read));
  input.devices = input.snapshot->devices();
  input.device = choose_device(input.file, input.devices, options.device);
  const auto& traces = input.snapshot->device_traces;
  input.raw_events = size_t(input.device) < traces.size() ? traces[size_t(input.device)].events.size() : 0;
  input.stacks = std::make_unique<SnapshotStackSource>(*input.snapshot);
  input.timeline =
      make_timeline(input.file, derive_replay_input(*input.snapshot, input.device, TimelineKind::Blocks));
  input.annotations = snapshot_annotations(*input.snapshot);
  return input;
}

ReportInput load_directory(const ReportOptions& options) {
  namespace fs = std::filesystem;
  ReportInput input;
  input.file = options.input;
  const fs::path json = fs::path(options.input) / kAllocationsJsonName;
  if (!fs::exists(json))
    throw InputError(input.file + ": not a converted directory (no " + kAllocationsJsonName + ")");
  const std::string db = (fs::path(options.input) / kElementsDbName).string();
  verify_elements_db(db);  // a shared directory is untrusted input (docs/FORMAT.md)
  AllocationsFile layouts = read_allocations_json(json.string());
  verify_layout_matches_db(layouts, db);
  for (const DeviceLayout& layout : layouts.devices) input.devices.push_back(layout.device);
  input.device = choose_device(input.file, input.devices, options.device);
  for (DeviceLayout& layout : layouts.devices) {
    if (layout.device == input.device) input.timeline = make_timeline(input.file, std::move(layout.blocks));
  }
  input.stacks = std::make_unique<DbStackSource>(db);
  input.annotations = read_db_annotations(db);
  return input;
}

std::string device_list(const std::vector<int>& devices) {
  std::string text;
  for (int device : devices) text += (text.empty() ? "" : ", ") + std::to_string(device);
  return text;
}

std::string bytes_text(uint64_t bytes) {
  return format_bytes(double(bytes)) + " (" + format_bytes_exact(bytes) + ")";
}

std::string moment_text(const Timeline& timeline, size_t state) {
  const int64_t event = event_of_state(timeline, state);
  return "state " + std::to_string(state) +
         (event < 0 ? " (before any event)" : " (after event " + std::to_string(event) + ")");
}

std::string summary_text(const ReportInput& input) {
  const Timeline& timeline = *input.timeline;
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
  return text;
}

size_t report_state(const ReportOptions& options, const ReportInput& input) {
  if (!options.at_event) return peak_state(*input.timeline);
  if (input.raw_events && uint64_t(*options.at_event) >= *input.raw_events) {
    throw InputError(input.file + ": no event " + std::to_string(*options.at_event) + " on device " +
                     std::to_string(input.device) + " (it has " + std::to_string(*input.raw_events) + ")");
  }
  return state_after_event(*input.timeline, *options.at_event);
}

std::string report_text(const ReportOptions& options, const ReportInput& input) {
  const Timeline& timeline = *input.timeline;
  const size_t state = report_state(options, input);
  LocationIndex locations(*input.stacks, options.location);
  const std::vector<LiveElement> live = live_elements(timeline, state);
  const MomentTable moment = build_moment_table(live, locations, state);

  std::string text = summary_text(input) + "\n";
  text += "live memory at " + moment_text(timeline, state) + ": " + bytes_text(moment.live_bytes) + " in " +
          format_grouped(live.size()) + " allocations\n\n";
  text += moment_table_text(moment, options.top) + "\n";
  const PhaseTable phases = build_phase_table(timeline, pair_annotations(input.annotations, input.device));
  text += "phases (annotations on device " + std::to_string(input.device) + "):\n" + phase_table_text(phases);
  return text;
}

int fail(std::FILE* err, std::string message) {
  for (char& c : message) {
    if (c == '\n' || c == '\r') c = ' ';  // errors are exactly one line
  }
  std::fprintf(err, "snapscope-convert: %s\n", message.c_str());
  return kExitFailure;
}

}  // namespace

int run_report(std::span<const std::string_view> args, std::FILE* out, std::FILE* err) {
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    std::fputs(kReportUsage, out);
    return 0;
  }
  ReportOptions options;
  try {
    options = parse_report_args(args);
  } catch (const ReportUsageError& error) {
    fail(err, error.what());
    std::fputs(kReportUsage, err);
    return kExitUsage;
  }
  try {
    const bool directory = std::filesystem::is_directory(options.input);
    const ReportInput input = directory ? load_directory(options) : load_pickle(options);
    std::fputs(report_text(options, input).c_str(), out);
    return 0;
  } catch (const std::bad_alloc&) {
    return fail(err, options.input + ": out of memory");
  } catch (const std::exception& error) {
    return fail(err, error.what());  // already "<file>: <reason>"
  }
}

}  // namespace snapscope
