// Finds where a pickle can be parsed apart, for the parallel reader. Pickle writes a list of more
// than one item as batches, MARK items APPENDS, each with the list on top of the stack; a
// snapshot's trace is such a list of millions of entry dicts. The scan walks the opcodes without
// building values, tracking only the stack's shape and the memo, and publishes runs of
// consecutive batches (chunks) that another thread can parse on its own. It also notes which memo
// entries are strings and where they are written, so that a chunk's references to keys and names
// memoised before it can be resolved without the chunks before it.
//
// The scan may be wrong only in ways that the unpickler checks when it splices a chunk in (the
// memo size and the stack depth at the chunk's start, the list on top of the stack); anything it
// does not model ends the scan, and the rest of the file is read in order.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/util/byte_source.h"

namespace snapscope::pickle {

struct PickleChunk {
  uint64_t begin = 0;      // stream offset of the first batch's MARK
  uint64_t end = 0;        // just past the last batch's APPENDS
  uint64_t memo_base = 0;  // memo entries defined before `begin`
  uint64_t depth = 0;      // values on the stack plus open MARKs before `begin`
};

// A memo entry holding a string from SHORT_BINUNICODE, BINUNICODE or BINUNICODE8.
struct StringMemo {
  uint64_t index = 0;   // memo index
  uint64_t offset = 0;  // stream offset of the opcode that wrote the string
};

// What the scan found so far. One thread (the scan) appends; any thread reads what is
// published. Entries never move once published.
class ChunkPlan {
 public:
  // `input_bytes` bounds how many chunks and string entries there can be.
  ChunkPlan(uint64_t input_bytes, uint64_t min_chunk_bytes);
  ~ChunkPlan();
  ChunkPlan(const ChunkPlan&) = delete;
  ChunkPlan& operator=(const ChunkPlan&) = delete;

  size_t chunks() const { return chunk_count_.load(std::memory_order_acquire); }
  const PickleChunk& chunk(size_t i) const { return chunks_[i]; }  // i < chunks()
  bool finished() const { return finished_.load(std::memory_order_acquire); }
  // Where the string memo entry `index` was written, if it is one published so far.
  std::optional<uint64_t> string_offset(uint64_t index) const;
  // One bit per memo entry, set for the string entries (string_offset() finds those): lets a chunk
  // parser tell in one load that a reference back is no string. Read with atomic_ref.
  const uint64_t* string_bits() const { return string_bits_; }

  // The scan's side.
  void add_string(StringMemo entry);
  void publish(const PickleChunk& chunk);  // also publishes every string added before it
  void finish() { finished_.store(true, std::memory_order_release); }
  // Where the scan stopped (meaningful once finished()).
  uint64_t scanned_bytes() const { return scanned_bytes_.load(std::memory_order_acquire); }
  void set_scanned_bytes(uint64_t bytes) { scanned_bytes_.store(bytes, std::memory_order_release); }
  size_t max_chunks() const { return chunks_.size(); }

 private:
  static constexpr size_t kBlockBits = 16;
  static constexpr size_t kBlock = size_t{1} << kBlockBits;
  const StringMemo& string_entry(size_t i) const { return blocks_[i >> kBlockBits][i & (kBlock - 1)]; }

  std::vector<PickleChunk> chunks_;  // sized up front: never reallocated while read
  std::atomic<size_t> chunk_count_{0};
  std::vector<std::unique_ptr<StringMemo[]>> blocks_;  // sized up front, blocks made as needed
  size_t strings_added_ = 0;                           // the scan's own count
  std::atomic<size_t> string_count_{0};                // published
  uint64_t* string_bits_ = nullptr;                    // reserved address space, zero until set
  size_t string_bit_words_ = 0;
  std::atomic<bool> finished_{false};
  std::atomic<uint64_t> scanned_bytes_{0};
};

struct ChunkScanOptions {
  uint64_t target_bytes = uint64_t{4} << 20;  // a chunk closes once it is this long
  uint64_t min_bytes = uint64_t{256} << 10;   // shorter runs of batches are left to the unpickler
};

// Scans `source` (which must have random access) from offset 0 and publishes into `plan` until
// STOP, the end, something it does not model, or `cancel`. Calls plan.finish() in every case;
// never throws for bad input (the unpickler reports that), only SourceError for failing I/O.
void scan_chunks(const ByteSource& source, uint64_t size, const ChunkScanOptions& options, ChunkPlan& plan,
                 const std::atomic<bool>& cancel);

}  // namespace snapscope::pickle
