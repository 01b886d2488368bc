// Categories and findings of one AnalysisSource, as --report, --summary json and tests use them.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/classify/classifier.h"
#include "core/export/export_source.h"
#include "core/findings/findings.h"

namespace snapscope {

Classification classify_source(const AnalysisSource& source, const CategoryRules* rules);
// Reads the allocator history (for OOM forensics) and the overflow warning, then finds.
std::vector<Finding> source_findings(const AnalysisSource& source, const Classification& classification);
// {"parameter": BYTES, "gradient": BYTES, ...}: every category, summing to the live bytes of `state`.
nlohmann::json categories_json(const Classification& classification, const Timeline& timeline, size_t state);

}  // namespace snapscope
