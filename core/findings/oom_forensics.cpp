// Out-of-memory forensics: for each oom event, what was asked, what was free on the device and
// inside the allocator's own segments, how split that free space was, and what would have helped.
#include <algorithm>
#include <map>
#include <vector>

#include "core/analysis/state_mapping.h"
#include "core/findings/finding_text.h"
#include "core/findings/findings.h"
#include "core/util/format.h"

namespace snapscope {
namespace {

struct FreeSpace {
  uint64_t total = 0;    // reserved but not in any block
  uint64_t largest = 0;  // largest contiguous free range
  std::map<uint64_t, uint64_t> largest_by_stream;
};

FreeSpace free_space(const AllocatorState& state) {
  FreeSpace space;
  const std::vector<AllocatorBlock> blocks = state.blocks().sorted();
  for (const auto& entry : state.segments()) {
    const AllocatorSegment& segment = entry.second;  // a named reference: lambdas may capture it
    uint64_t cursor = segment.addr;
    const uint64_t end = segment.addr + segment.size;
    auto note_gap = [&](uint64_t gap) {
      space.total += gap;
      space.largest = std::max(space.largest, gap);
      uint64_t& stream_largest = space.largest_by_stream[segment.stream];
      stream_largest = std::max(stream_largest, gap);
    };
    auto block = std::lower_bound(blocks.begin(), blocks.end(), segment.addr,
                                  [](const AllocatorBlock& b, uint64_t addr) { return b.addr < addr; });
    for (; block != blocks.end() && block->addr < end; ++block) {
      if (block->addr > cursor) note_gap(block->addr - cursor);
      cursor = std::max(cursor, block->addr + block->size);
    }
    if (end > cursor) note_gap(end - cursor);
  }
  return space;
}

// The largest category that is not parameters at `state`, as "activation (4.2 GiB)".
std::pair<std::string, uint64_t> largest_freeable(const Classification& classification,
                                                  std::span<const uint64_t> bytes) {
  std::pair<std::string, uint64_t> best{"", 0};
  for (size_t id = 0; id < bytes.size(); ++id) {
    if (id == category_id(Category::Parameter) || id == category_id(Category::Unknown)) continue;
    if (bytes[id] > best.second)
      best = {std::string(classification.names.name(static_cast<CategoryId>(id))), bytes[id]};
  }
  return best;
}

std::string advice_for(const std::string& category) {
  if (category == "activation") return " (activation checkpointing, a smaller batch or sequence)";
  if (category == "gradient") return " (gradient accumulation in lower precision, or freeing them earlier)";
  if (category == "optimizer state") return " (a sharded or 8-bit optimizer, or ZeroRedundancyOptimizer)";
  if (category == "temporary") return " (smaller chunks, or in-place operations)";
  return "";
}

Finding oom_finding(const FindingsInput& input, const OomEvent& oom) {
  const Timeline& timeline = input.timeline;
  AllocatorState state = input.history->after_event(static_cast<int64_t>(oom.event) - 1);
  const FreeSpace space = free_space(state);
  const size_t moment = state_after_event(timeline, static_cast<int64_t>(oom.event));
  const std::vector<uint64_t> bytes = category_bytes_at(input.classification, timeline, moment);
  const uint64_t available = space.total + oom.device_free;
  Finding finding;
  finding.kind = FindingKind::Oom;
  finding.bytes = oom.requested;
  finding.title = "Out of memory at event #" + std::to_string(oom.event) + ": asked for " +
                  format_bytes(double(oom.requested)) + ", " + format_bytes(double(oom.device_free)) +
                  " free on the device";
  std::string& text = finding.text;
  text = "Requested " + format_bytes(double(oom.requested)) + " (" + format_bytes_exact(oom.requested) +
         "). Free on the device: " + format_bytes(double(oom.device_free)) +
         ". Reserved by the allocator: " + format_bytes(double(state.reserved_bytes())) + ", of which " +
         format_bytes(double(space.total)) + " was not allocated; its largest free block was " +
         format_bytes(double(space.largest)) + " (fragmentation " +
         percent(space.total - std::min(space.total, space.largest), space.total) + ").";
  for (const auto& [stream, largest] : space.largest_by_stream)
    text += "\n  stream " + std::to_string(input.history->stream_name(stream)) + ": largest free block " +
            format_bytes(double(largest));
  text += "\nLive by category: " + category_breakdown(input.classification.names, bytes) + ".";
  if (available >= oom.requested && space.largest < oom.requested) {
    text +=
        "\nThe free bytes existed but were split: PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True lets "
        "segments grow instead of fragmenting; max_split_size_mb stops large blocks being split for small "
        "requests.";
  } else if (available < oom.requested) {
    const uint64_t shortfall = oom.requested - available;
    const auto [category, category_bytes] = largest_freeable(input.classification, bytes);
    text += "\nMemory really ran out: short by " + format_bytes(double(shortfall)) + ".";
    if (!category.empty() && category_bytes >= shortfall)
      text += " Freeing part of the " + format_bytes(double(category_bytes)) + " of " + category +
              " would have made room" + advice_for(category) + ".";
  }
  finding.state = moment;
  finding.elem = largest_live(timeline, moment);
  return finding;
}

}  // namespace

std::vector<Finding> oom_findings(const FindingsInput& input) {
  std::vector<Finding> findings;
  if (!input.history) return findings;
  for (const OomEvent& oom : input.history->ooms()) findings.push_back(oom_finding(input, oom));
  return findings;
}

}  // namespace snapscope
