// EventPool: events in segments that never move; the only segment becomes the trace itself.
#include <doctest/doctest.h>

#include <vector>

#include "core/snapshot/event_pool.h"

using namespace snapscope;

namespace {

TraceEvent event_at(uint64_t addr) {
  TraceEvent event;
  event.addr = addr;
  event.set_action(Action::Alloc);
  return event;
}

}  // namespace

TEST_CASE("event pool: one segment is handed over without a copy") {
  EventPool pool(1000);
  for (uint64_t i = 0; i < 1000; ++i) pool.push_back(event_at(i));
  const TraceEvent* first = &pool[0];
  CHECK(pool.span(0, 1000).data() == first);
  const std::vector<TraceEvent> all = pool.take_all();
  REQUIRE(all.size() == 1000);
  CHECK(all.data() == first);
  CHECK(all[999].addr == 999);
  CHECK(pool.empty());
}

TEST_CASE("event pool: past its estimate it grows by segments and keeps earlier spans valid") {
  EventPool pool(1);  // one batch a segment
  const size_t count = 2 * EventPool::kBatch + 5;
  pool.push_back(event_at(0));
  const std::span<const TraceEvent> early = pool.span(0, 1);
  for (uint64_t i = 1; i < count; ++i) pool.push_back(event_at(i));
  CHECK(early[0].addr == 0);  // the first segment did not move
  CHECK(pool.size() == count);
  CHECK(pool[EventPool::kBatch - 1].addr == EventPool::kBatch - 1);
  CHECK(pool[EventPool::kBatch].addr == EventPool::kBatch);
  CHECK(pool.span(EventPool::kBatch, EventPool::kBatch)[0].addr == EventPool::kBatch);
  CHECK(pool.span(2 * EventPool::kBatch, 5).back().addr == count - 1);
  const std::vector<TraceEvent> all = pool.take_all();
  REQUIRE(all.size() == count);
  for (size_t i = 0; i < count; ++i) {
    if (all[i].addr != i) FAIL("event " << i << " holds " << all[i].addr);
  }
  CHECK(pool.empty());
}

TEST_CASE("event pool: the estimate from the pickle's size covers real snapshots' density") {
  // gpt_train_step_ctx128 spends ~180 bytes an event, the generator ~113, events without
  // frames ~80: all fit one segment.
  CHECK(expected_events_for(80'000'000) >= 1'000'000);
  CHECK(expected_events_for(0) == 0);
}
