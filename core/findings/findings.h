// What a senior engineer would say after a minute with a snapshot: the peak in one paragraph,
// leak candidates, memory that grows from step to step, forensics for every out-of-memory event,
// and caveats about the recording. Each finding links to a moment (and an allocation) so the
// viewer can put the cursor and the selection on it; the converter prints the same text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/allocator/allocator_history.h"
#include "core/analysis/stack_source.h"
#include "core/classify/classifier.h"
#include "core/timeline/timeline.h"

namespace snapscope {

enum class FindingKind : uint8_t { Peak, Leak, StepGrowth, Oom, Caveat };
const char* finding_kind_name(FindingKind kind);  // "peak", "leak", "step growth", "oom", "caveat"

struct Finding {
  FindingKind kind = FindingKind::Caveat;
  std::string title;             // one line
  std::string text;              // a paragraph; lists are lines starting with "  "
  std::optional<size_t> state;   // the moment it is about (a Timeline state)
  std::optional<uint32_t> elem;  // the allocation to select there
};

struct FindingsInput {
  const Timeline& timeline;  // the block timeline
  const Classification& classification;
  const StackSource& stacks;
  AllocatorHistory* history = nullptr;          // OOM forensics need it; null: OOMs are not examined
  std::optional<std::string> overflow_warning;  // trace_overflow_warning's line, if any
};

std::vector<Finding> find_findings(const FindingsInput& input);

// One section per finding: "[peak] title" then the indented paragraph.
std::string findings_text(const std::vector<Finding>& findings);
// [{"kind", "title", "text", "state", "event", "elem"}...] for --summary json.
nlohmann::json findings_json(const std::vector<Finding>& findings, const Timeline& timeline);

// The individual finders (findings.cpp runs them in this order).
std::optional<Finding> peak_finding(const FindingsInput& input);
std::optional<Finding> leak_finding(const FindingsInput& input);
std::optional<Finding> step_growth_finding(const FindingsInput& input);
std::vector<Finding> oom_findings(const FindingsInput& input);
std::vector<Finding> recording_caveats(const FindingsInput& input);

}  // namespace snapscope
