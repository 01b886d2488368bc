// A rank's summary file: RankSummary <-> JSON. The file is untrusted (it travels from a cluster
// job): every field is type-checked and bounded, and any flaw is one error naming the file.
#include <limits>

#include "core/compare/rank_table.h"
#include "core/snapshot/snapshot_reader.h"

namespace snapscope {
namespace {

constexpr size_t kMaxText = 4096;

[[noreturn]] void fail(const std::string& file, const std::string& what) {
  throw InputError(file + ": " + what);
}

const nlohmann::json& field(const nlohmann::json& object, const char* key, const std::string& file) {
  const auto found = object.find(key);
  if (found == object.end()) fail(file, std::string("missing \"") + key + "\"");
  return *found;
}

uint64_t unsigned_field(const nlohmann::json& object, const char* key, const std::string& file) {
  const nlohmann::json& value = field(object, key, file);
  if (!value.is_number_unsigned()) fail(file, std::string("\"") + key + "\" is not a non-negative integer");
  return value.get<uint64_t>();
}

std::string text_field(const nlohmann::json& object, const char* key, const std::string& file) {
  const nlohmann::json& value = field(object, key, file);
  if (!value.is_string() || value.get_ref<const std::string&>().size() > kMaxText)
    fail(file, std::string("\"") + key + "\" is not a string of at most 4096 bytes");
  return value.get<std::string>();
}

std::vector<uint64_t> curve_field(const nlohmann::json& object, const char* key, const std::string& file) {
  const nlohmann::json& value = field(object, key, file);
  if (!value.is_array() || value.size() > kRankCurvePoints)
    fail(file, std::string("\"") + key + "\" is not a list of at most 256 byte counts");
  std::vector<uint64_t> curve;
  for (const nlohmann::json& point : value) {
    if (!point.is_number_unsigned())
      fail(file, std::string("\"") + key + "\" holds a value that is not a byte count");
    curve.push_back(point.get<uint64_t>());
  }
  return curve;
}

}  // namespace

nlohmann::json rank_summary_json(const RankSummary& summary) {
  return {{"format", kRankSummaryFormat},
          {"file", summary.file},
          {"directory_stamp", summary.directory_stamp},
          {"device", summary.device},
          {"peak_bytes", summary.peak_bytes},
          {"peak_event", summary.peak_event},
          {"reserved_peak", summary.reserved_peak},
          {"phase_at_peak", summary.phase_at_peak},
          {"top_location", summary.top_location},
          {"top_location_bytes", summary.top_location_bytes},
          {"top_category", summary.top_category},
          {"top_category_bytes", summary.top_category_bytes},
          {"total_curve", summary.total_curve},
          {"reserved_curve", summary.reserved_curve}};
}

RankSummary parse_rank_summary(std::string_view text, const std::string& file) {
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception&) {
    fail(file, "not a rank summary (not valid JSON)");
  }
  if (!json.is_object()) fail(file, "not a rank summary (not a JSON object)");
  const auto format = json.find("format");  // json.value() throws type_error for a non-string
  if (format == json.end() || !format->is_string() ||
      format->get_ref<const std::string&>() != kRankSummaryFormat)
    fail(file, std::string("not a rank summary (format is not \"") + kRankSummaryFormat + "\")");
  RankSummary summary;
  summary.file = text_field(json, "file", file);
  // The rank is looked for beside the summary only: never an absolute path, a subdirectory or "..".
  if (summary.file.empty() || summary.file == "." || summary.file == ".." ||
      summary.file.find('/') != std::string::npos || summary.file.find('\0') != std::string::npos)
    fail(file, "\"file\" is not the name of a snapshot beside the summary");
  if (json.contains("directory_stamp")) summary.directory_stamp = text_field(json, "directory_stamp", file);
  const uint64_t device = unsigned_field(json, "device", file);
  if (device > 1 << 16) fail(file, "\"device\" is out of range");
  summary.device = static_cast<int>(device);
  summary.peak_bytes = unsigned_field(json, "peak_bytes", file);
  const nlohmann::json& event = field(json, "peak_event", file);
  if (!event.is_number_integer() || event.get<int64_t>() < -1)
    fail(file, "\"peak_event\" is not an event number or -1");
  summary.peak_event = event.get<int64_t>();
  summary.reserved_peak = unsigned_field(json, "reserved_peak", file);
  summary.phase_at_peak = text_field(json, "phase_at_peak", file);
  summary.top_location = text_field(json, "top_location", file);
  summary.top_location_bytes = unsigned_field(json, "top_location_bytes", file);
  summary.top_category = text_field(json, "top_category", file);
  summary.top_category_bytes = unsigned_field(json, "top_category_bytes", file);
  summary.total_curve = curve_field(json, "total_curve", file);
  summary.reserved_curve = curve_field(json, "reserved_curve", file);
  return summary;
}

}  // namespace snapscope
