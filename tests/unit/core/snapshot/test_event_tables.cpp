// TraceEvent's packed word and the side tables that keep it at 32 bytes: stream ids, and the
// rare fields that the database thread gets copied with each batch of a snapshot still being read.
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

TEST_CASE("trace event: action, flags and link share one word without touching each other") {
  TraceEvent event;
  CHECK(event.action() == Action::Unknown);
  CHECK_FALSE(event.has_frames());
  CHECK_FALSE(event.has_extra());
  CHECK(event.link() == 0);

  const uint32_t last = TraceEvent::kLinkLimit - 1;
  event.set_action(Action::Oom);
  event.set_has_frames(true);
  event.link_stream(last);
  CHECK(event.action() == Action::Oom);
  CHECK(event.has_frames());
  CHECK_FALSE(event.has_extra());
  CHECK(event.link() == last);

  event.link_extra(7);
  CHECK(event.has_extra());
  CHECK(event.link() == 7);
  CHECK(event.action() == Action::Oom);
  CHECK(event.has_frames());

  event.set_action(Action::Alloc);
  event.set_has_frames(false);
  CHECK(event.action() == Action::Alloc);
  CHECK_FALSE(event.has_frames());
  CHECK(event.has_extra());
  CHECK(event.link() == 7);

  event.link_stream(3);  // back to a plain stream link
  CHECK_FALSE(event.has_extra());
  CHECK(event.link() == 3);
  CHECK(event.action() == Action::Alloc);
}

TEST_CASE("snapshot: an event's stream value, extra fields and pool id") {
  Snapshot snapshot;
  TraceEvent plain;
  TraceEvent on_stream;
  on_stream.link_stream(snapshot.streams.intern(42));
  TraceEvent rich;
  EventExtra extra;
  extra.compile_context = snapshot.strings.intern("ctx");
  extra.rare = 0;
  extra.stream = snapshot.streams.intern(43);
  RareEventFields rare;
  rare.has_pool_id = true;
  rare.pool_id = {5, 6};
  snapshot.rare_event_fields.push_back(rare);
  rich.link_extra(0);
  snapshot.event_extras.push_back(extra);

  CHECK(snapshot.stream_of(plain) == 0);
  CHECK(snapshot.stream_of(on_stream) == 42);
  CHECK(snapshot.stream_of(rich) == 43);  // the extra's stream, not link 0's
  CHECK(snapshot.extra_of(plain).compile_context == 0);
  CHECK(snapshot.extra_of(on_stream).compile_context == 0);
  CHECK(snapshot.strings.view(snapshot.extra_of(rich).compile_context) == "ctx");
  CHECK(snapshot.pool_id_of(plain) == nullptr);
  REQUIRE(snapshot.pool_id_of(rich) != nullptr);
  CHECK(*snapshot.pool_id_of(rich) == PoolIdPair{5, 6});
  TraceEvent dangling;
  dangling.link_extra(9);
  CHECK_FALSE(snapshot.extra_of(dangling).any());
  CHECK(snapshot.stream_of(dangling) == 0);
}

TEST_CASE("event batch tables: streams accumulate, extras are the last batch's") {
  std::vector<TraceEvent> events(4);
  events[1].link_extra(0);
  events[2].link_stream(2);
  events[3].link_extra(1);

  EventBatchTables tables;
  EventBatch one;
  one.events = std::span(events).subspan(0, 2);
  one.new_streams = {100};
  one.extras = {EventExtra{.user_metadata = 11, .stream = 1}};
  tables.add(one);
  CHECK(tables.stream_of(events[0]) == 0);
  CHECK(tables.stream_of(events[1]) == 100);
  CHECK(tables.texts_of(events[1]).user_metadata == 11);
  CHECK(tables.texts_of(events[0]).user_metadata == 0);

  EventBatch two;
  two.events = std::span(events).subspan(2, 2);
  two.new_streams = {200};
  two.extras = {EventExtra{.compile_context = 22, .stream = 2}};
  two.first_extra = 1;
  tables.add(two);
  CHECK(tables.stream_of(events[2]) == 200);
  CHECK(tables.stream_of(events[3]) == 200);
  CHECK(tables.texts_of(events[3]).compile_context == 22);
  CHECK(tables.texts_of(events[1]).user_metadata == 0);  // an earlier batch's: no longer held
  CHECK(tables.stream_of(events[1]) == 0);
}
