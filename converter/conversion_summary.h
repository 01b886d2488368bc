// The end-of-conversion summary, as text for people or JSON for scripts (--summary json).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/convert/convert.h"

namespace snapscope {

std::string format_summary_text(const ConvertSummary& summary);
nlohmann::json summary_to_json(const ConvertSummary& summary);
// summary_to_json plus, per device, what the converted directory says about it: the bytes of
// each category at the peak ("categories_at_peak", summing to peak_bytes), the module tree at
// the peak ("modules_at_peak", its depth-0 rows summing to peak_bytes) and the findings.
nlohmann::json summary_with_analysis(const ConvertSummary& summary);

}  // namespace snapscope
