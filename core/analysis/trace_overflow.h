// PyTorch records allocator events in a ring buffer of trace_alloc_max_entries entries; when it
// wrapped, allocator_settings.trace_alloc_overflowed is true and the trace starts mid-run. Users
// must be told: memory allocated before the first kept event looks pre-existing.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace snapscope {

// The one-line warning for these allocator_settings, or nothing when the trace is complete.
std::optional<std::string> trace_overflow_warning(const nlohmann::json& allocator_settings);

// The same from a converted elements.db (its allocator_settings table, values as JSON text).
// Throws std::runtime_error("<path>: <reason>") for an unreadable database.
std::optional<std::string> trace_overflow_warning_in_db(const std::string& elements_db);

}  // namespace snapscope
