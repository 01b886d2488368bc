// elements.db's events are written while the pickle is still being read (keyed as device 0's
// trace); every other case must fall back to writing them after reading, with the same rows.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <zlib.h>

#include "core/convert/convert.h"
#include "core/convert/event_handoff.h"
#include "core/snapshot/event_pool.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/store/elements_db/sqlite_handle.h"
#include "unit/support/generated_snapshot.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;
using snapscope::test::FixtureEvent;
using snapscope::test::FixtureSnapshot;
using snapscope::test::TempDir;

namespace {

// More events than one pool chunk (65536), so the stream sees several batches.
constexpr size_t kManyEvents = 70'001;

// Streams and compile contexts first seen in a later batch test what batches carry along, and
// a run of equal extras across the first batch's end that events may share only within a batch.
std::vector<FixtureEvent> alloc_free_trace(size_t count, int64_t first_time) {
  std::vector<FixtureEvent> events;
  for (size_t i = 0; i < count; ++i) {
    const uint64_t addr = 0x10000 + (i / 2) * 0x100;
    const int64_t time = i == 0 ? first_time : static_cast<int64_t>(100 + i);
    const bool across_batches = i >= EventPool::kBatch - 20 && i < EventPool::kBatch + 20;
    const uint64_t stream = across_batches ? 7 : i > 66'000 && i % 5 == 0 ? 0x7f12'3456'7000 + i % 4 : i % 3;
    const std::string context = across_batches ? "across batches"
                                : i % 997 == 0 ? "compiled " + std::to_string(i % 4)
                                               : "";
    events.push_back({i % 2 == 0 ? "alloc" : "free_completed", addr, 64 + i % 7, time, {}, context, stream});
  }
  return events;
}

// events rows as text, in key order.
std::vector<std::string> event_rows(const std::string& db_path) {
  SqliteDatabase db(db_path, SqliteDatabase::Mode::ReadOnly);
  SqliteStatement query = db.prepare(
      "SELECT e.id, e.action, e.addr, e.size, c.stream, e.dt_us, e.stack_id, "
      "coalesce((SELECT text FROM strings WHERE id = c.compile_context), '') "
      "FROM events e JOIN event_contexts c ON c.id = e.context ORDER BY e.id");
  std::vector<std::string> rows;
  while (query.next_row()) {
    std::string row;
    for (int c = 0; c < 7; ++c)
      row += (query.column_is_null(c) ? "-" : std::to_string(query.column_int(c))) + ",";
    rows.push_back(row + query.column_text(7));
  }
  return rows;
}

// What the rows must be: key device << 40 | idx, times relative to the device's minimum.
std::vector<std::string> expected_rows(const Snapshot& snapshot, const std::vector<int>& devices) {
  std::vector<std::string> rows;
  for (const int device : devices) {
    const auto& events = snapshot.device_traces[static_cast<size_t>(device)].events;
    int64_t base = kNoTime;
    for (const TraceEvent& e : events) {
      if (e.time_us != kNoTime) base = base == kNoTime ? e.time_us : std::min(base, e.time_us);
    }
    for (size_t idx = 0; idx < events.size(); ++idx) {
      const TraceEvent& e = events[idx];
      const int64_t key = (int64_t{device} << 40) | static_cast<int64_t>(idx);
      rows.push_back(std::to_string(key) + "," + std::to_string(static_cast<int>(e.action())) + "," +
                     std::to_string(e.addr) + "," + std::to_string(e.size) + "," +
                     std::to_string(snapshot.stream_of(e)) + "," +
                     (e.time_us == kNoTime ? "-" : std::to_string(e.time_us - base)) + "," +
                     std::to_string(e.stack) + "," +
                     std::string(snapshot.strings.view(snapshot.extra_of(e).compile_context)));
    }
  }
  return rows;
}

void check_events_table(const FixtureSnapshot& fixture, int only_device, const std::vector<int>& devices) {
  TempDir dir;
  test::write_file(dir / "s.pickle", test::pickle_bytes(fixture));
  test::convert_into(dir / "s.pickle", dir / "out", only_device);
  const Snapshot snapshot = read_snapshot((dir / "s.pickle").string());
  CHECK(event_rows((dir / "out" / "elements.db").string()) == expected_rows(snapshot, devices));
}

}  // namespace

TEST_CASE("convert stream: device 0's whole trace is kept as streamed") {
  FixtureSnapshot fixture;
  fixture.traces = {alloc_free_trace(kManyEvents, 100)};
  check_events_table(fixture, -1, {0});
}

TEST_CASE("reader: consecutive events with equal extras share one; more extras than the limit fail") {
  FixtureSnapshot fixture;
  std::vector<FixtureEvent> trace;
  for (size_t i = 0; i < 100; ++i) {
    const std::string context = i < 60 ? "compiled" : i % 2 == 0 ? "even" : "odd";
    trace.push_back({i % 2 == 0 ? "alloc" : "free_completed", 0x1000 + i / 2 * 0x100, 64, 0, {}, context, 5});
  }
  fixture.traces = {trace};
  TempDir dir;
  test::write_file(dir / "s.pickle", test::pickle_bytes(fixture));
  const Snapshot snapshot = read_snapshot((dir / "s.pickle").string());
  CHECK(snapshot.event_extras.size() == 1 + 40);  // one for the run of 60, then one each
  const auto& events = snapshot.device_traces[0].events;
  REQUIRE(events.size() == 100);
  for (size_t i = 0; i < events.size(); ++i) {
    const std::string_view context = i < 60 ? "compiled" : i % 2 == 0 ? "even" : "odd";
    CHECK(snapshot.stream_of(events[i]) == 5);
    CHECK(snapshot.strings.view(snapshot.extra_of(events[i]).compile_context) == context);
  }

  // A TraceEvent links at most max_event_extras of them: 41 fit, 40 do not.
  ReadOptions options;
  options.max_event_extras = 41;
  CHECK(read_snapshot((dir / "s.pickle").string(), options).event_extras.size() == 41);
  options.max_event_extras = 40;
  try {
    read_snapshot((dir / "s.pickle").string(), options);
    FAIL("expected InputError");
  } catch (const InputError& e) {
    const std::string message = e.what();
    CHECK(message.starts_with((dir / "s.pickle").string() + ": "));
    CHECK(message.find("more than 40 runs of trace entries with a compile context") != std::string::npos);
    CHECK(message.find('\n') == std::string::npos);
  }
}

TEST_CASE("convert stream: an earlier timestamp after the first one shifts dt_us") {
  FixtureSnapshot fixture;
  fixture.traces = {alloc_free_trace(kManyEvents, 1'000'000)};
  check_events_table(fixture, -1, {0});
}

TEST_CASE("convert stream: a trace on another device, or several, is written again") {
  FixtureSnapshot on_device_1;
  on_device_1.traces = {{}, alloc_free_trace(kManyEvents, 100)};
  check_events_table(on_device_1, -1, {1});

  FixtureSnapshot two_devices;
  two_devices.traces = {alloc_free_trace(40'000, 100), alloc_free_trace(40'001, 7)};
  check_events_table(two_devices, -1, {0, 1});
  check_events_table(two_devices, 0, {0});
  check_events_table(two_devices, 1, {1});
}

TEST_CASE("convert stream: input that breaks off after many events leaves nothing behind") {
  TempDir dir;
  FixtureSnapshot fixture;
  fixture.traces = {alloc_free_trace(kManyEvents, 100)};
  const std::string good = test::pickle_bytes(fixture);
  test::write_file(dir / "cut.pickle", good.substr(0, good.size() * 9 / 10));
  ConvertOptions options;
  options.input = (dir / "cut.pickle").string();
  options.output_dir = (dir / "out").string();
  std::string error;
  try {
    convert_snapshot(options);
  } catch (const InputError& e) {
    error = e.what();
  }
  CHECK(error.starts_with(options.input + ": "));
  CHECK(error.find('\n') == std::string::npos);
  CHECK(dir.entries() == std::vector<std::string>{"cut.pickle"});
}

TEST_CASE("event handoff: batches in order; finish and cancel wait for the consumer") {
  const std::vector<TraceEvent> pool(10);
  const auto batch_of = [&](size_t first, size_t count) {
    EventBatch batch;
    batch.events = std::span(pool).subspan(first, count);
    return batch;
  };
  EventHandoff handoff;
  handoff.add(batch_of(0, 4));
  handoff.add(batch_of(4, 6));
  std::vector<size_t> sizes;
  std::thread consumer([&] {
    while (const auto batch = handoff.next()) sizes.push_back(batch->events.size());
    handoff.consumer_done();
  });
  handoff.finish();  // returns only once the consumer let go
  CHECK(sizes == std::vector<size_t>{4, 6});
  CHECK_FALSE(handoff.cancelled());
  consumer.join();

  EventHandoff cancelled;
  cancelled.add(batch_of(0, 10));
  std::thread stopper([&] { cancelled.cancel(); });
  while (cancelled.next()) {  // the batch, unless the cancel came first; then the end
  }
  CHECK(cancelled.cancelled());
  cancelled.consumer_done();
  stopper.join();

  // A consumer that failed: later batches are dropped and the reader is never blocked.
  EventHandoff failed;
  failed.consumer_done();
  failed.add(batch_of(0, 10));
  failed.finish();
  CHECK_FALSE(failed.next().has_value());
}

namespace {

// Counts what the reader streams; finish() / cancel() return at once (nothing is kept).
class CountingSink final : public EventSink {
 public:
  void add(EventBatch batch) override { count += batch.events.size(); }
  void finish() override {}
  void cancel() override {}
  size_t count = 0;
};

}  // namespace

TEST_CASE("reader: with only_device, other devices' entries are never built") {
  TempDir dir;
  FixtureSnapshot fixture;
  fixture.traces = {alloc_free_trace(3'000, 100), alloc_free_trace(2'001, 7), alloc_free_trace(1'000, 9)};
  test::write_file(dir / "s.pickle", test::pickle_bytes(fixture));
  for (const int device : {-1, 0, 1, 2}) {
    CAPTURE(device);
    CountingSink sink;
    ReadOptions options;
    options.only_device = device;
    options.event_sink = &sink;
    const Snapshot snapshot = read_snapshot((dir / "s.pickle").string(), options);
    const size_t expected = device < 0 ? 6'001 : fixture.traces[static_cast<size_t>(device)].size();
    CHECK(sink.count == expected);
    for (size_t d = 0; d < 3; ++d) {
      const bool kept = device < 0 || static_cast<size_t>(device) == d;
      CHECK(snapshot.device_traces[d].events.size() == (kept ? fixture.traces[d].size() : 0));
    }
  }
}

namespace {

// What a consumer learns of each event from the batches alone: its stream and compile context.
class TablesSink final : public EventSink {
 public:
  void add(EventBatch batch) override {
    tables_.add(batch);
    for (const TraceEvent& event : batch.events)
      seen.emplace_back(tables_.stream_of(event), tables_.texts_of(event).compile_context);
  }
  void finish() override {}
  void cancel() override {}
  std::vector<std::pair<uint64_t, StringId>> seen;

 private:
  EventBatchTables tables_;
};

}  // namespace

TEST_CASE("reader: each batch carries the streams and extras of its events") {
  TempDir dir;
  FixtureSnapshot fixture;
  fixture.traces = {alloc_free_trace(kManyEvents, 100)};
  test::write_file(dir / "s.pickle", test::pickle_bytes(fixture));
  TablesSink sink;
  ReadOptions options;
  options.event_sink = &sink;
  const Snapshot snapshot = read_snapshot((dir / "s.pickle").string(), options);
  const auto& events = snapshot.device_traces[0].events;
  REQUIRE(sink.seen.size() == events.size());
  size_t wrong = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    const std::pair<uint64_t, StringId> expected{snapshot.stream_of(events[i]),
                                                 snapshot.extra_of(events[i]).compile_context};
    wrong += sink.seen[i] != expected;
  }
  CHECK(wrong == 0);
  // Sharing is within a batch: the run of equal extras across the first batch's end has two.
  CHECK(events[EventPool::kBatch - 1].link() != events[EventPool::kBatch].link());
  CHECK(events[EventPool::kBatch - 2].link() == events[EventPool::kBatch - 1].link());
}

namespace {

// Records how the reader ends the stream and where the batches pointed.
class EndingSink final : public EventSink {
 public:
  void add(EventBatch batch) override {
    if (first == nullptr) first = batch.events.data();
    count += batch.events.size();
  }
  void finish() override { ending = "finish"; }
  void cancel() override { ending = "cancel"; }
  void finish_keeping_batches() override { ending = "keeping"; }
  const TraceEvent* first = nullptr;
  size_t count = 0;
  std::string ending;
};

}  // namespace

TEST_CASE("reader: the stream ends without waiting only when its batches became the trace in place") {
  TempDir dir;
  const auto read_with = [&](const FixtureSnapshot& fixture, int device, EndingSink& sink) {
    test::write_file(dir / "s.pickle", test::pickle_bytes(fixture));
    ReadOptions options;
    options.only_device = device;
    options.event_sink = &sink;
    return read_snapshot((dir / "s.pickle").string(), options);
  };
  SUBCASE("one device: its trace is the pool's memory, so the batches stay valid") {
    FixtureSnapshot fixture;
    fixture.traces = {alloc_free_trace(kManyEvents, 100)};
    EndingSink sink;
    const Snapshot snapshot = read_with(fixture, -1, sink);
    CHECK(sink.ending == "keeping");
    CHECK(sink.first == snapshot.device_traces[0].events.data());
    CHECK(sink.count == kManyEvents);
  }
  SUBCASE("several devices: the traces are copies, so the reader waits before the pool goes") {
    FixtureSnapshot fixture;
    fixture.traces = {alloc_free_trace(1'000, 100), alloc_free_trace(1'001, 7)};
    EndingSink sink;
    read_with(fixture, -1, sink);
    CHECK(sink.ending == "finish");
    EndingSink only_one;
    const Snapshot snapshot = read_with(fixture, 1, only_one);  // the pool holds device 1 alone
    CHECK(only_one.ending == "keeping");
    CHECK(only_one.first == snapshot.device_traces[1].events.data());
  }
  SUBCASE("more events than the pool's estimate: segments are joined after the wait") {
    // A gzip pickle's size says nothing of its events: the pool starts with one batch a segment.
    FixtureSnapshot fixture;
    fixture.traces = {alloc_free_trace(kManyEvents, 100)};
    const std::string bytes = test::pickle_bytes(fixture);
    const auto path = dir / "s.pickle.gz";
    gzFile gz = gzopen(path.c_str(), "wb");
    REQUIRE(gz != nullptr);
    REQUIRE(gzwrite(gz, bytes.data(), static_cast<unsigned>(bytes.size())) == static_cast<int>(bytes.size()));
    gzclose(gz);
    EndingSink sink;
    ReadOptions options;
    options.event_sink = &sink;
    const Snapshot snapshot = read_snapshot(path.string(), options);
    CHECK(sink.ending == "finish");
    const auto& events = snapshot.device_traces[0].events;
    REQUIRE(events.size() == kManyEvents);
    CHECK(kManyEvents > EventPool::kBatch);
    for (size_t i = 0; i < kManyEvents; ++i) {
      if (events[i].addr != 0x10000 + (i / 2) * 0x100) FAIL("event " << i << " moved");
    }
  }
}
