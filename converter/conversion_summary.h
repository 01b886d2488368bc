// The end-of-conversion summary, as text for people or JSON for scripts (--summary json).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/convert/convert.h"

namespace snapscope {

std::string format_summary_text(const ConvertSummary& summary);
nlohmann::json summary_to_json(const ConvertSummary& summary);

}  // namespace snapscope
