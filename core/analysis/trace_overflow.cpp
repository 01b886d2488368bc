#include "core/analysis/trace_overflow.h"

#include "core/store/elements_db/elements_db_reader.h"

namespace snapscope {

std::optional<std::string> trace_overflow_warning(const nlohmann::json& allocator_settings) {
  if (!allocator_settings.is_object()) return std::nullopt;
  const auto overflowed = allocator_settings.find("trace_alloc_overflowed");
  if (overflowed == allocator_settings.end() || !overflowed->is_boolean() || !overflowed->get<bool>()) {
    return std::nullopt;
  }
  const auto max_entries = allocator_settings.find("trace_alloc_max_entries");
  const std::string kept = max_entries != allocator_settings.end() && max_entries->is_number_integer()
                               ? "only the last " + std::to_string(max_entries->get<int64_t>()) + " events"
                               : "only the most recent events";
  return "the allocator trace overflowed (trace_alloc_overflowed): " + kept +
         " were kept, so memory allocated before them shows as pre-existing";
}

std::optional<std::string> trace_overflow_warning_in_db(const std::string& elements_db) {
  nlohmann::json settings = nlohmann::json::object();
  for (const auto& [key, value] : ElementsDbReader(elements_db).allocator_settings()) {
    if (key != "trace_alloc_overflowed" && key != "trace_alloc_max_entries") continue;
    settings[key] = nlohmann::json::parse(value, nullptr, false);
  }
  return trace_overflow_warning(settings);
}

}  // namespace snapscope
