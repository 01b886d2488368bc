#include "converter/conversion_summary.h"

#include "converter/source_findings.h"
#include "core/analysis/live_elements.h"
#include "core/analysis/module_tree.h"
#include "core/analysis/state_mapping.h"
#include "core/classify/category_evidence.h"
#include "core/export/export_common.h"

#include <cstdio>
#include <sstream>

#include "core/snapshot/model.h"
#include "core/util/format.h"

namespace snapscope {
namespace {

std::string bytes_both(uint64_t bytes) {
  return format_bytes(static_cast<double>(bytes)) + " (" + format_bytes_exact(bytes) + ")";
}

std::string time_span(const ConvertSummary& summary) {
  if (summary.first_time_us == kNoTime) return "no timestamps";
  // time_us past 2^63 reads back negative: say so rather than print a negative span.
  if (summary.first_time_us < 0 || summary.last_time_us < summary.first_time_us)
    return "timestamps out of range";
  return format_duration_us(static_cast<double>(summary.last_time_us - summary.first_time_us));
}

std::string device_list(const ConvertSummary& summary) {
  std::string list;
  for (const DeviceStats& device : summary.devices)
    list += (list.empty() ? "" : ", ") + (is_host_device(device.device)
                                              ? std::to_string(device.device) + " = host"
                                              : std::to_string(device.device));
  return std::to_string(summary.devices.size()) + (list.empty() ? "" : " (" + list + ")");
}

void write_device(std::ostream& out, const DeviceStats& d) {
  out << device_name(d.device) << ":\n";
  out << "  events:        " << d.events << "\n";
  out << "  allocations:   " << d.allocations << "\n";
  out << "  pre-existing:  " << d.pre_existing() << " (" << d.free_without_alloc << " freed without alloc, "
      << d.snapshot_blocks << " from the segment snapshot)\n";
  out << "  peak:          " << bytes_both(d.peak_bytes);
  if (d.peak_event >= 0) out << " at event " << d.peak_event;
  out << "\n";
  out << "  initial:       " << bytes_both(d.initial_bytes) << "\n";
  out << "  final:         " << bytes_both(d.final_bytes) << "\n";
  out << "  reserved:      " << bytes_both(d.reserved_bytes) << " at the snapshot, peak "
      << bytes_both(d.peak_reserved_bytes) << "\n";
}

nlohmann::json time_or_null(int64_t time_us) {
  return time_us == kNoTime ? nlohmann::json(nullptr) : nlohmann::json(time_us);
}

nlohmann::json device_json(const DeviceStats& d) {
  return {
      {"device", d.device},
      {"events", d.events},
      {"allocations", d.allocations},
      {"pre_existing", d.pre_existing()},
      {"free_without_alloc", d.free_without_alloc},
      {"snapshot_blocks", d.snapshot_blocks},
      {"peak_bytes", d.peak_bytes},
      {"peak_event", d.peak_event >= 0 ? nlohmann::json(d.peak_event) : nlohmann::json(nullptr)},
      {"initial_bytes", d.initial_bytes},
      {"final_bytes", d.final_bytes},
      {"reserved_bytes", d.reserved_bytes},
      {"peak_reserved_bytes", d.peak_reserved_bytes},
      {"segment_allocations", d.segment_elements},
      {"first_time_us", time_or_null(d.first_time_us)},
      {"last_time_us", time_or_null(d.last_time_us)},
  };
}

// Every row of the module tree at the peak, depth-first; the depth-0 rows sum to peak_bytes.
nlohmann::json modules_json(const AnalysisSource& source, size_t state) {
  const ModuleTree tree = build_module_tree(live_elements(*source.blocks, state),
                                            export_module_instances(export_input(source)), state);
  nlohmann::json rows = nlohmann::json::array();
  for (const ModuleRow& row : tree.rows) {
    rows.push_back({{"module", row.label},
                    {"path", row.path},
                    {"depth", row.depth},
                    {"bytes", row.bytes},
                    {"self_bytes", row.self_bytes},
                    {"count", row.count}});
  }
  return rows;
}

}  // namespace

std::string format_summary_text(const ConvertSummary& summary) {
  std::ostringstream out;
  out << "file:          " << summary.file << "\n";
  out << "size:          " << bytes_both(summary.file_bytes) << "\n";
  out << "events:        " << summary.events << "\n";
  out << "devices:       " << device_list(summary) << "\n";
  out << "time span:     " << time_span(summary) << "\n";
  for (const DeviceStats& device : summary.devices) write_device(out, device);
  const ConvertTimings& t = summary.timings;
  char timing[200];
  std::snprintf(timing, sizeof timing,
                "%.2f s (read %.2f, layout %.2f, write %.2f); CPU %.2f s (%.2f, %.2f, %.2f)", t.total_s,
                t.read_s, t.derive_s, t.write_s, t.total_cpu_s, t.read_cpu_s, t.derive_cpu_s, t.write_cpu_s);
  out << "output:        " << summary.output_dir << " (elements.db "
      << format_bytes(static_cast<double>(summary.db_bytes)) << ", allocations.json.zst "
      << format_bytes(static_cast<double>(summary.json_bytes)) << ")\n";
  out << "converted in:  " << timing << "\n";
  for (const std::string& warning : summary.warnings) out << "warning:       " << warning << "\n";
  return out.str();
}

nlohmann::json summary_with_analysis(const ConvertSummary& summary) {
  nlohmann::json json = summary_to_json(summary);
  for (nlohmann::json& device : json["devices"]) {
    SourceOptions options;
    options.device = device["device"].get<int>();
    options.with_segments = false;
    const AnalysisSource source = load_analysis_source(summary.output_dir, options);
    const Classification classification = classify_source(source, nullptr);
    const size_t peak = peak_state(*source.blocks);
    device["categories_at_peak"] = categories_json(classification, *source.blocks, peak);
    device["category_strength_at_peak"] =
        category_evidence_json(classification, category_evidence_at(classification, *source.blocks, peak));
    device["modules_at_peak"] = modules_json(source, peak);
    device["findings"] = findings_json(source_findings(source, classification), *source.blocks);
  }
  return json;
}

nlohmann::json summary_to_json(const ConvertSummary& summary) {
  nlohmann::json devices = nlohmann::json::array();
  for (const DeviceStats& device : summary.devices) devices.push_back(device_json(device));
  const bool timed = summary.first_time_us != kNoTime && summary.first_time_us >= 0 &&
                     summary.last_time_us >= summary.first_time_us;  // as time_span(): never negative
  return {
      {"file", summary.file},
      {"file_bytes", summary.file_bytes},
      {"events", summary.events},
      {"first_time_us", time_or_null(summary.first_time_us)},
      {"last_time_us", time_or_null(summary.last_time_us)},
      {"time_span_us",
       timed ? nlohmann::json(summary.last_time_us - summary.first_time_us) : nlohmann::json(nullptr)},
      {"devices", devices},
      {"warnings", summary.warnings},
      {"output_dir", summary.output_dir},
      {"elements_db_bytes", summary.db_bytes},
      {"allocations_json_bytes", summary.json_bytes},
      {"seconds",
       {{"total", summary.timings.total_s},
        {"read", summary.timings.read_s},
        {"layout", summary.timings.derive_s},
        {"write", summary.timings.write_s}}},
      {"cpu_seconds",
       {{"total", summary.timings.total_cpu_s},
        {"read", summary.timings.read_cpu_s},
        {"layout", summary.timings.derive_cpu_s},
        {"write", summary.timings.write_cpu_s}}},
  };
}

}  // namespace snapscope
