// What a senior engineer would say after a minute with a snapshot: the peak in one paragraph,
// leaks (memory that keeps growing over repeated steps), memory that grows from step to step, what
// is live when the trace ends (a neutral fact, never a leak by itself), forensics for every
// out-of-memory event, and caveats about the recording. Each finding links to a moment (and an allocation) so
// the viewer can put the cursor and the selection on it; the converter prints the same text.
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

enum class FindingKind : uint8_t { Peak, Leak, StepGrowth, Oom, Caveat, LiveAtEnd };
// "peak", "leak", "step growth", "oom", "caveat", "live at end"
const char* finding_kind_name(FindingKind kind);

struct Finding {
  FindingKind kind = FindingKind::Caveat;
  std::string title;             // one line
  std::string text;              // a paragraph; lists are lines starting with "  "
  std::optional<size_t> state;   // the moment it is about (a Timeline state)
  std::optional<uint32_t> elem;  // the allocation to select there
  // The bytes the finding is about, so scripts need not parse the text: the peak's bytes, the
  // growing bytes of a leak or step growth, the bytes live at the end, an OOM's request, a
  // caveat's bytes (0 when it is about no memory).
  uint64_t bytes = 0;
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
// [{"kind", "title", "text", "bytes", "state", "event", "elem"}...] for --summary json.
nlohmann::json findings_json(const std::vector<Finding>& findings, const Timeline& timeline);

// The individual finders (findings.cpp runs them in this order).
std::optional<Finding> peak_finding(const FindingsInput& input);
std::optional<Finding> leak_finding(const FindingsInput& input);
std::optional<Finding> step_growth_finding(const FindingsInput& input);
std::optional<Finding> live_at_end_finding(const FindingsInput& input);
std::vector<Finding> oom_findings(const FindingsInput& input);
std::vector<Finding> recording_caveats(const FindingsInput& input);

}  // namespace snapscope
