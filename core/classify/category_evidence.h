// How strong the categories of one moment are and why: per category the bytes that are
// `certain` and `likely`, and the reasons behind them (what makes anything `unknown` above all).
// The report's --by category, --summary json and the viewer's categories table show this.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/classify/classifier.h"
#include "core/timeline/timeline.h"

namespace snapscope {

struct ReasonBytes {
  Reason reason = Reason::NoEvidence;
  uint64_t bytes = 0;
};

struct CategoryEvidence {
  CategoryId category = 0;
  uint64_t bytes = 0;
  uint64_t certain = 0, likely = 0;  // the rest is unknown
  std::vector<ReasonBytes> reasons;  // largest first, none empty
};

// The categories live in `state`, largest first (empty ones left out).
std::vector<CategoryEvidence> category_evidence_at(const Classification& classification,
                                                   const Timeline& timeline, size_t state);

// "  parameter 12.69 GiB: likely 12.69 GiB\n      12.69 GiB  from before recording, ..." lines.
std::string category_evidence_text(const Classification& classification,
                                   const std::vector<CategoryEvidence>& evidence);

// {"certain": {category: bytes}, "likely": {...}, "unknown": bytes,
//  "reasons": [{"category", "strength", "reason", "bytes"}...]}.
nlohmann::json category_evidence_json(const Classification& classification,
                                      const std::vector<CategoryEvidence>& evidence);

}  // namespace snapscope
