// Pickles the pieces of a torch memory snapshot (segments, trace events, settings,
// annotations) with the sharing a real torch dump has: every string and frame dict is
// written once and referenced through the memo afterwards, and free events reuse their
// allocation's frames list.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/gen/caching_allocator.h"
#include "core/gen/call_site_pool.h"
#include "core/gen/training_loop.h"
#include "core/pickle/pickle_writer.h"

namespace snapscope::gen {

// The private pool of GenOptions::mem_pool: a torch.cuda.MemPool's id (user pools are (0, n)).
inline constexpr std::array<int64_t, 2> kMemPoolId = {0, 1};

struct EventFields {
  bool time_us = true;
  bool compile_context = false;
  bool user_metadata = false;
  bool forward_frames = false;  // backward allocations name their forward op (GenOptions)
};

class SnapshotPickler {
 public:
  SnapshotPickler(PickleWriter& writer, const CallSitePool& call_sites);

  void text(std::string_view value);  // a str, memoized on first use
  // `pool`: its segment_pool_id; (0, 0) is the default pool.
  void segment(const SimSegment& segment, int device, std::array<int64_t, 2> pool = {0, 0});
  // `note`: an Annotate event's user_metadata (the annotation), written instead of the usual one.
  void event(const GenEvent& event, const EventFields& fields, std::string_view note = {});
  void end_device_trace() { live_lists_.clear(); }  // addresses are per device
  void allocator_settings(bool expandable_segments);
  void annotation(const GenAnnotation& annotation, int device);

 private:
  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };

  // Every event writes these; a slot per string skips the hash lookup in text().
  static constexpr uint32_t kUnwritten = UINT32_MAX;
  struct HotStrings {
    uint32_t action = kUnwritten, addr = kUnwritten, size = kUnwritten, stream = kUnwritten;
    uint32_t time_us = kUnwritten, compile_context = kUnwritten, user_metadata = kUnwritten;
    uint32_t frames = kUnwritten, not_available = kUnwritten, empty = kUnwritten, forward_frames = kUnwritten;
    uint32_t actions[7] = {kUnwritten, kUnwritten, kUnwritten, kUnwritten,
                           kUnwritten, kUnwritten, kUnwritten};
  };
  void hot_text(uint32_t& slot, std::string_view value);

  uint32_t frames_list(uint32_t site);  // writes a fresh list; returns its memo index
  // A site's Python frames as traceback strings, outermost first ("  File ..., line N, in f\n"),
  // as autograd records forward_frames; written once per site, then memo references.
  void forward_frames_list(uint32_t site);
  void frame(uint32_t frame_id);
  void block(const SimBlock& block, uint64_t address);
  void key_uint(std::string_view key, uint64_t value);

  PickleWriter& w_;
  const CallSitePool& call_sites_;
  std::unordered_map<std::string, uint32_t, StringHash, std::equal_to<>> strings_;
  HotStrings hot_;
  std::vector<uint32_t> frame_memo_;                      // kUnwritten until first use
  std::unordered_map<uint64_t, uint32_t> live_lists_;     // alloc address -> its frames list
  std::unordered_map<uint32_t, uint32_t> forward_lists_;  // site -> its forward_frames list
};

}  // namespace snapscope::gen
