// Everything the inspector shows about one allocation, read from elements.db on demand
// (one indexed row plus its stack, through the store's ElementsDbReader), and its JSON form for
// "print selection".
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/store/elements_db/elements_db_reader.h"
#include "core/timeline/replay_input.h"
#include "core/view/stack_format.h"
#include "core/view/stack_text.h"

namespace snapscope {

// An annotation attached to the allocation after it was made (torch.cuda.memory._annotate_memory).
struct MemoryNote {
  int64_t event = 0;
  std::optional<int64_t> time_us;
  std::string metadata;
  std::string location;  // where _annotate_memory was called, as the inspector names a location
  bool operator==(const MemoryNote&) const = default;
};

struct AllocationDetails {
  int device = 0;
  TimelineKind kind = TimelineKind::Blocks;
  uint32_t elem = 0;
  uint64_t address = 0;
  uint64_t size = 0;
  std::optional<uint64_t> requested_size;  // blocks only
  uint64_t stream = 0;
  std::optional<int64_t> alloc_event, free_event;
  std::optional<int64_t> alloc_time_us, free_time_us;
  uint64_t total_after_alloc = 0;  // memory in use right after it was allocated
  std::string origin;
  std::string compile_context;
  std::string user_metadata;
  std::string forward_frames;  // the forward pass's stack of a backward allocation, as text
  // Its private pool (CUDA graphs, MemPool): the one its alloc event names, else (blocks only)
  // that of the end-of-trace segment holding its address, as memory_viz's find_pool_id.
  std::optional<std::array<int64_t, 2>> pool_id;
  bool pool_from_segment = false;        // pool_id was found by address
  std::vector<FrameText> frames;         // innermost first, unfiltered
  std::vector<FrameText> forward_stack;  // forward_frames parsed, innermost first
  std::vector<MemoryNote> notes;         // its annotate events, in trace order

  // Lifetime in events / microseconds; empty while it is never freed or unknown.
  std::optional<int64_t> lifetime_events() const;
  std::optional<int64_t> lifetime_us() const;
};

// The details of one allocation, its stack as text (frames read through `stacks`). Throws
// std::runtime_error("<path>: no allocation ...") when the row is missing.
AllocationDetails read_allocation_details(const ElementsDbReader& db, StackTextReader& stacks, int device,
                                          TimelineKind kind, uint32_t elem);
AllocationDetails read_allocation_details(const ElementsDbReader& db, int device, TimelineKind kind,
                                          uint32_t elem);

nlohmann::json details_to_json(const AllocationDetails& details, bool show_all_frames);
// Plain text of the inspector (for the clipboard).
// A private pool id as "(a, b)", as torch prints MempoolId_t.
std::string pool_text(const std::array<int64_t, 2>& pool_id);
std::string details_to_text(const AllocationDetails& details, bool show_all_frames);

}  // namespace snapscope
