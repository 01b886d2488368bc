// The parallel reader's scan (core/pickle/chunk_scan.h) on hand-written pickles: which memo
// entries it takes for strings (a chunk parser resolves those by reading them where they were
// written), and where it ends.
#include <doctest/doctest.h>

#include <atomic>
#include <string>

#include "core/pickle/chunk_scan.h"
#include "core/pickle/opcodes.h"

using namespace snapscope;
using namespace snapscope::pickle;

namespace {

std::string short_unicode(char c) { return {char(SHORT_BINUNICODE), char(1), c}; }

void scan(const std::string& bytes, ChunkPlan& plan) {
  MemorySource source(bytes);
  const std::atomic<bool> cancel{false};
  ChunkScanOptions options;
  options.min_bytes = 1;
  scan_chunks(source, bytes.size(), options, plan, cancel);
}

}  // namespace

TEST_CASE("the scan publishes a list's batch as a chunk, with the strings memoised before its end") {
  std::string p = {char(PROTO), char(4), char(EMPTY_LIST), char(MEMOIZE)};  // memo 0: the list
  const size_t batch_at = p.size();
  p += {char(MARK), char(EMPTY_DICT), char(MEMOIZE), char(MARK)};  // memo 1: a dict
  const size_t a_at = p.size();
  p += short_unicode('a') + char(MEMOIZE);  // memo 2: 'a'
  p += {char(BINGET), char(1)};             // the dict again: no string on top now
  const size_t b_at = p.size();
  p += short_unicode('b') + char(MEMOIZE);                     // memo 3: 'b'
  p += {char(BININT1), char(7), char(TUPLE2), char(MEMOIZE)};  // memo 4: ('b', 7)
  p += {char(BINGET), char(1), char(MEMOIZE)};                 // memo 5: a GET's value, the dict
  p += short_unicode('c') + std::string{char(BININT1), char(8), char(SETITEMS)};  // 'c' never memoised
  for (int i = 0; i < 2100; ++i) p += {char(BININT1), char(0)};  // a batch long enough to be a chunk
  p += char(APPENDS);
  const size_t stop_at = p.size();
  p += char(STOP);

  ChunkPlan plan(p.size(), 1);
  scan(p, plan);
  CHECK(plan.finished());
  CHECK(plan.scanned_bytes() == stop_at);
  REQUIRE(plan.chunks() == 1);
  CHECK(plan.chunk(0).begin == batch_at);
  CHECK(plan.chunk(0).end == stop_at);
  CHECK(plan.chunk(0).memo_base == 1);
  CHECK(plan.chunk(0).depth == 1);  // the list
  CHECK(plan.string_offset(2) == a_at);
  CHECK(plan.string_offset(3) == b_at);
  for (uint64_t index : {0, 1, 4, 5, 6}) {
    CAPTURE(index);
    CHECK_FALSE(plan.string_offset(index).has_value());
    CHECK((plan.string_bits()[0] >> index & 1) == 0);
  }
  CHECK((plan.string_bits()[0] >> 2 & 1) == 1);
  CHECK((plan.string_bits()[0] >> 3 & 1) == 1);
}

TEST_CASE("the scan ends at an opcode it does not model, and says where") {
  std::string p = {char(PROTO), char(4), char(EMPTY_LIST)};
  const size_t pop_at = p.size();
  p += {char(POP), char(STOP)};
  ChunkPlan plan(p.size(), 1);
  scan(p, plan);
  CHECK(plan.finished());
  CHECK(plan.scanned_bytes() == pop_at);
}
