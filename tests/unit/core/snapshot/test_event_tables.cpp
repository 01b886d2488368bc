// The side tables that keep TraceEvent at 40 bytes: stream ids, and the rare fields that the
// database thread gets copied with each batch of a snapshot still being read.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "core/snapshot/event_sink.h"
#include "core/snapshot/model.h"

using namespace snapscope;

TEST_CASE("stream table: stream 0 is id 0; each other value gets the next id once") {
  StreamTable streams;
  CHECK(streams.intern(0) == 0);
  const uint64_t big = 0x7f12'3456'7890'0000ull;
  CHECK(streams.intern(big) == 1);
  CHECK(streams.intern(7) == 2);
  CHECK(streams.intern(big) == 1);  // not the last one: found by value
  CHECK(streams.intern(big) == 1);
  CHECK(streams.intern(0) == 0);
  CHECK(streams.intern(~uint64_t{0}) == 3);
  CHECK(streams.size() == 4);
  CHECK(streams.value(1) == big);
  CHECK(streams.value(3) == ~uint64_t{0});
  CHECK(streams.value(4) == 0);  // an id it never gave
  CHECK(std::vector<uint64_t>(streams.values().begin(), streams.values().end()) ==
        std::vector<uint64_t>{0, big, 7, ~uint64_t{0}});
}

TEST_CASE("snapshot: an event's stream value, extra fields and pool id") {
  Snapshot snapshot;
  TraceEvent plain;
  TraceEvent rich;
  rich.stream_id = snapshot.streams.intern(42);
  EventExtra extra;
  extra.compile_context = snapshot.strings.intern("ctx");
  extra.rare = 0;
  RareEventFields rare;
  rare.has_pool_id = true;
  rare.pool_id = {5, 6};
  snapshot.rare_event_fields.push_back(rare);
  rich.extra = 0;
  snapshot.event_extras.push_back(extra);

  CHECK(snapshot.stream_of(plain) == 0);
  CHECK(snapshot.stream_of(rich) == 42);
  CHECK(snapshot.extra_of(plain).compile_context == 0);
  CHECK(snapshot.strings.view(snapshot.extra_of(rich).compile_context) == "ctx");
  CHECK(snapshot.pool_id_of(plain) == nullptr);
  REQUIRE(snapshot.pool_id_of(rich) != nullptr);
  CHECK(*snapshot.pool_id_of(rich) == PoolIdPair{5, 6});
  TraceEvent dangling;
  dangling.extra = 9;
  CHECK_FALSE(snapshot.extra_of(dangling).any());
}

TEST_CASE("event batch tables: streams accumulate, texts are the last batch's") {
  std::vector<TraceEvent> events(4);
  events[1].stream_id = 1;
  events[1].extra = 0;
  events[2].stream_id = 2;
  events[3].extra = 1;

  EventBatchTables tables;
  EventBatch one;
  one.events = std::span(events).subspan(0, 2);
  one.new_streams = {100};
  one.texts = {{0, 11}};
  tables.add(one);
  CHECK(tables.stream_of(events[0]) == 0);
  CHECK(tables.stream_of(events[1]) == 100);
  CHECK(tables.texts_of(events[1]).user_metadata == 11);
  CHECK(tables.texts_of(events[0]).user_metadata == 0);

  EventBatch two;
  two.events = std::span(events).subspan(2, 2);
  two.new_streams = {200};
  two.texts = {{22, 0}};
  two.first_extra = 1;
  tables.add(two);
  CHECK(tables.stream_of(events[1]) == 100);  // still known
  CHECK(tables.stream_of(events[2]) == 200);
  CHECK(tables.texts_of(events[3]).compile_context == 22);
  CHECK(tables.texts_of(events[1]).user_metadata == 0);  // an earlier batch's: no longer held
}
