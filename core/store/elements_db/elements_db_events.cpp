#include "core/store/elements_db/elements_db_events.h"

#include <algorithm>
#include <string>
#include <vector>

#include "core/store/elements_db/elements_db_tables.h"

namespace snapscope::elements_db {
namespace {

constexpr uint64_t kFingerprintSeed = 0xcbf29ce484222325ULL;

std::span<const TraceEvent> events_of(const Snapshot& snapshot, int device) {
  const auto index = static_cast<size_t>(device);
  if (device < 0 || index >= snapshot.device_traces.size()) return {};
  return snapshot.device_traces[index].events;
}

// Where the rows of a run of events go, and what they are relative to.
struct EventsTarget {
  RowidTablePages& pages;
  EventContexts& contexts;
  int device = 0;
  int64_t time_base = kNoTime;
};

// One events row: `key` is its id column, its time is relative to `time_base`.
// `Tables`: a Snapshot, or the EventBatchTables of streamed batches.
template <class Tables>
void fill_event_row(std::span<FeedValue> row, FeedValue key, const TraceEvent& event, const Tables& tables,
                    const EventsTarget& target) {
  const EventTexts texts = tables.texts_of(event);
  row[0] = key;
  row[1] = {static_cast<int64_t>(event.action())};
  row[2] = {static_cast<int64_t>(event.addr)};  // wraps above 2^63, as SQLite stores it
  row[3] = {static_cast<int64_t>(event.size)};
  row[4] = event.time_us == kNoTime ? FeedValue{0, true} : FeedValue{event.time_us - target.time_base};
  row[5] = {event.stack};
  row[6] = {target.contexts.id_of({tables.stream_of(event), texts.compile_context, texts.user_metadata})};
}

// Events [first_idx, first_idx + events.size()) of the target's device.
template <class Tables>
void insert_events(const EventsTarget& target, size_t first_idx, std::span<const TraceEvent> events,
                   const Tables& tables) {
  target.pages.insert(events.size(), [&](size_t row, std::span<FeedValue> values) {
    const int64_t key = event_key(target.device, static_cast<int64_t>(first_idx + row));
    fill_event_row(values, FeedValue{key}, events[row], tables, target);
  });
}

// The base of events.dt_us: the same minimum as devices.first_time_us (DeviceStats).
int64_t first_time_us(std::span<const TraceEvent> events) {
  int64_t first = kNoTime;
  for (const TraceEvent& event : events) {
    if (event.time_us != kNoTime) first = first == kNoTime ? event.time_us : std::min(first, event.time_us);
  }
  return first;
}

// Order-sensitive hash of every stored event field: adopt() compares the streamed events with
// device 0's final trace without keeping a copy of them.
template <class Tables>
uint64_t fold_fingerprint(uint64_t hash, std::span<const TraceEvent> events, const Tables& tables) {
  auto mix = [&hash](uint64_t value) { hash = (hash ^ value) * 0x100000001b3ULL; };
  for (const TraceEvent& e : events) {
    const EventTexts texts = tables.texts_of(e);
    mix(e.addr);
    mix(e.size);
    mix(tables.stream_of(e));
    mix(static_cast<uint64_t>(e.time_us));
    mix((uint64_t{e.stack} << 32) | texts.compile_context);
    mix((uint64_t{texts.user_metadata} << 8) | static_cast<uint64_t>(e.action()));
  }
  return hash;
}

void write_event_extra(SqliteBatchInsert& insert, int device, size_t idx, const RareEventFields& rare) {
  const bool has_pool = rare.has_pool_id;
  insert.add(device).add(static_cast<uint64_t>(idx)).add(rare.unknown_action);
  insert.add(has_pool ? std::optional<int64_t>(rare.pool_id[0]) : std::nullopt);
  insert.add(has_pool ? std::optional<int64_t>(rare.pool_id[1]) : std::nullopt);
  insert.add(rare.forward_frames);
  insert.end_row();
}

}  // namespace

void write_events(SqliteDatabase& db, RowidTablePages& pages, const Snapshot& snapshot, int device,
                  EventContexts& contexts) {
  const std::span<const TraceEvent> events = events_of(snapshot, device);
  const EventsTarget target{pages, contexts, device, first_time_us(events)};
  insert_events(target, 0, events, snapshot);
  write_event_extras(db, snapshot, device);
}

void write_event_extras(SqliteDatabase& db, const Snapshot& snapshot, int device) {
  const std::span<const TraceEvent> events = events_of(snapshot, device);
  SqliteBatchInsert insert(db, "event_extras", 6);
  for (size_t idx = 0; idx < events.size(); ++idx) {
    const RareEventFields& rare = snapshot.rare_of(events[idx]);
    if (rare.any()) write_event_extra(insert, device, idx, rare);
  }
  insert.flush();
}

StreamedEvents::StreamedEvents(RowidTablePages& pages, int device, EventContexts& contexts)
    : pages_(pages), contexts_(contexts), device_(device), fingerprint_(kFingerprintSeed) {}

void StreamedEvents::add(const EventBatch& batch) {
  tables_.add(batch);
  if (time_base_ == kNoTime) time_base_ = first_time_us(batch.events);
  insert_events({pages_, contexts_, device_, time_base_}, count_, batch.events, tables_);
  count_ += batch.events.size();
  fingerprint_ = fold_fingerprint(fingerprint_, batch.events, tables_);
}

bool StreamedEvents::adopt(const Snapshot& snapshot, std::span<const int> devices) {
  if (count_ == 0) return false;
  const std::span<const TraceEvent> trace = events_of(snapshot, device_);
  // dt_us is relative to the trace's earliest time: rarely, a time after the first is earlier.
  const bool match = std::find(devices.begin(), devices.end(), device_) != devices.end() &&
                     trace.size() == count_ &&
                     fold_fingerprint(kFingerprintSeed, trace, snapshot) == fingerprint_ &&
                     first_time_us(trace) == time_base_;
  if (!match) {
    pages_.clear();
    contexts_.clear();  // only these rows used them: nothing else is written before adopt()
  }
  return match;
}

}  // namespace snapscope::elements_db
