#include "core/snapshot/parallel_reader.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <unordered_map>

#include "core/pickle/little_endian.h"
#include "core/pickle/opcodes.h"
#include "core/util/bench_measure.h"
#include "core/util/usable_cores.h"

namespace snapscope {

using pickle::Kind;
using pickle::Value;

struct ParallelChunks::Result {
  Snapshot tables;  // the chunk's own strings, frames, stacks and streams
  ChunkEvents events;
  std::vector<Value> memo;   // entries chunk.memo_base, memo_base + 1, ... in the chunk's ids
  std::vector<Value> items;  // EventRuns of events.events
};

namespace {

constexpr uint64_t kAskAgainBytes = uint64_t{1} << 20;
constexpr auto kPollInterval = std::chrono::milliseconds(2);
// Below this an input reads on one thread (read_threads_for).
constexpr uint64_t kParallelFromBytes = uint64_t{32} << 20;
// Asked for no number, a read goes parallel from this many usable cores, on up to
// kAutoMaxThreads. Below, the scan thread and the chunk parses (about 1.5x the one-thread parse
// per byte) take the cores that the database writer and the window need: on 2 cores a parallel
// read ran at 0.7-0.8x one thread. A 1 GB scaled gpt snapshot on a 16-core Xeon read in 2.09 s
// on one thread, 1.17 s on 4 and 1.24 s on 8, where the one-thread scan bounds it; since then
// the run cache (GetRunCache) made one thread read it at 1.0 GB/s on 2 cores, the scan's pace
// (1.4 GB/s), so the scan bounds the gain to about 1.4x whatever the core count.
constexpr unsigned kAutoFromCores = 4;
constexpr unsigned kAutoMaxThreads = 16;

}  // namespace

// The strings memoised before the chunks, as read where they were written: shared by every
// chunk parser, so that a string referred back to from every chunk (a trace entry's key, a
// repeated user_metadata) is read from the file once, not once per chunk. Sharded: each chunk
// parser asks once per string it meets, from any thread.
class ParallelChunks::StringsBefore {
 public:
  std::optional<std::string> find(uint64_t index) {
    Shard& shard = shards_[index % kShards];
    std::lock_guard lock(shard.mutex);
    const auto it = shard.texts.find(index);
    return it == shard.texts.end() ? std::nullopt : std::optional<std::string>(it->second);
  }
  void add(uint64_t index, const std::string& text) {
    Shard& shard = shards_[index % kShards];
    std::lock_guard lock(shard.mutex);
    shard.texts.try_emplace(index, text);
  }

 private:
  static constexpr size_t kShards = 64;
  struct Shard {
    std::mutex mutex;
    std::unordered_map<uint64_t, std::string> texts;
  };
  std::array<Shard, kShards> shards_;
};

namespace {

// A worker's view of the memo before its chunk: the strings the scan found, read where they
// were written (or found read already).
class PlanStrings final : public pickle::ExternalMemo {
 public:
  PlanStrings(const pickle::ChunkPlan& plan, const ByteSource& source, ParallelChunks::StringsBefore& read)
      : plan_(plan), source_(source), read_(read) {}

  std::optional<std::string> string(uint64_t index) override {
    if (auto text = read_.find(index)) return text;
    auto text = read_string(index);
    if (text) read_.add(index, *text);
    return text;
  }

 private:
  std::optional<std::string> read_string(uint64_t index) {
    const auto offset = plan_.string_offset(index);
    if (!offset) return std::nullopt;
    uint8_t head[9] = {};
    const size_t got = source_.read_at(*offset, head);
    size_t width = 0;
    switch (got > 0 ? head[0] : 0) {
      case pickle::SHORT_BINUNICODE:
        width = 1;
        break;
      case pickle::BINUNICODE:
        width = 4;
        break;
      case pickle::BINUNICODE8:
        width = 8;
        break;
      default:
        return std::nullopt;
    }
    if (got < 1 + width) return std::nullopt;
    const uint64_t length = pickle::load_le(head + 1, width);
    if (length > (uint64_t{1} << 30)) return std::nullopt;  // the whole file's parse reads those
    std::string text(static_cast<size_t>(length), '\0');
    const size_t payload =
        source_.read_at(*offset + 1 + width, {reinterpret_cast<uint8_t*>(text.data()), text.size()});
    if (payload != text.size()) return std::nullopt;
    return text;
  }

  const pickle::ChunkPlan& plan_;
  const ByteSource& source_;
  ParallelChunks::StringsBefore& read_;
};

// Bytes [begin, begin + size) of a source with random access, read in order: lent in place
// where the whole source holds its bytes in memory (a mapped file), else copied with read_at.
class RangeSource final : public ByteSource {
 public:
  RangeSource(const ByteSource& whole, uint64_t begin, uint64_t size)
      : whole_(whole), in_place_(whole.bytes_in_place()), next_(begin), left_(size) {}
  size_t read(std::span<uint8_t> dst) override {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(dst.size(), left_));
    const size_t got = want == 0 ? 0 : whole_.read_at(next_, dst.first(want));
    if (got < want) throw SourceError("the file shrank while it was being read");
    next_ += got;
    left_ -= got;
    return got;
  }
  std::optional<uint64_t> remaining() const override { return left_; }
  bool lends_bytes() const override { return !in_place_.empty(); }
  std::span<const uint8_t> view(uint64_t offset, size_t wanted) override {
    const uint64_t end = next_ + left_;
    if (!lends_bytes() || offset > end || end > in_place_.size()) return ByteSource::view(offset, wanted);
    const size_t n = static_cast<size_t>(std::min<uint64_t>(wanted, end - offset));
    next_ = std::max(next_, offset + n);
    left_ = end - next_;
    return in_place_.subspan(static_cast<size_t>(offset), n);
  }

 private:
  const ByteSource& whole_;
  std::span<const uint8_t> in_place_;
  uint64_t next_;
  uint64_t left_;
};

// True when a worker's memo value can stand in the whole file's memo once its ids are mapped.
bool mappable(Value v) {
  switch (v.kind) {
    case Kind::Container:
    case Kind::Bytes:
    case Kind::EventRun:
      return false;
    default:
      return true;
  }
}

}  // namespace

unsigned read_threads_for(uint64_t bytes, unsigned requested) {
  if (bytes < kParallelFromBytes) return 1;
  if (requested != 0) return std::clamp(requested, 1u, 64u);
  const unsigned cores = usable_cores();
  return cores >= kAutoFromCores ? std::min(cores, kAutoMaxThreads) : 1;
}

ParallelChunks::ParallelChunks(const ByteSource& source, uint64_t size, const ParallelReadOptions& options,
                               const pickle::UnpicklerLimits& limits, SnapshotReducer& reducer,
                               Snapshot& snapshot)
    : source_(source),
      size_(size),
      options_(options),
      limits_(limits),
      reducer_(reducer),
      snapshot_(snapshot),
      plan_(size, options.scan.min_bytes),
      strings_before_(std::make_unique<StringsBefore>()),
      slots_(plan_.max_chunks()) {
  threads_.emplace_back([this] { scan(); });
  for (unsigned i = 1; i < options_.threads; ++i) threads_.emplace_back([this] { work(); });
}

ParallelChunks::~ParallelChunks() {
  cancel_.store(true);
  changed_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

ParallelReadStats ParallelChunks::stats() const {
  std::lock_guard lock(mutex_);
  return {plan_.chunks(),        spliced_,     spliced_events_, scan_cpu_s_,
          plan_.scanned_bytes(), parse_cpu_s_, merge_cpu_s_};
}

void ParallelChunks::scan() {
  const double cpu_start = thread_cpu_seconds();
  try {
    pickle::scan_chunks(source_, size_, options_.scan, plan_, cancel_);
  } catch (const std::exception&) {
    // Fewer chunks: the unpickler reads the rest, and reports any I/O failure it meets itself.
  }
  {
    std::lock_guard lock(mutex_);
    scan_cpu_s_ = thread_cpu_seconds() - cpu_start;
  }
  changed_.notify_all();
}

// Takes the next chunk no one has, if one is published and within the lookahead. Needs mutex_.
bool ParallelChunks::take_next(size_t& index) {
  const size_t published = plan_.chunks();
  while (next_claim_ < published &&
         (slots_[next_claim_].state != State::Waiting || plan_.chunk(next_claim_).begin < unpickler_offset_))
    ++next_claim_;
  if (next_claim_ >= published ||
      plan_.chunk(next_claim_).begin >= unpickler_offset_ + options_.lookahead_bytes)
    return false;
  index = next_claim_++;
  slots_[index].state = State::Parsing;
  return true;
}

// Waits for a chunk to take; false when there will be none.
bool ParallelChunks::claim(size_t& index) {
  std::unique_lock lock(mutex_);
  for (;;) {
    if (cancel_.load()) return false;
    if (take_next(index)) return true;
    if (plan_.finished() && next_claim_ >= plan_.chunks())
      return false;  // finished first: the count is final
    changed_.wait_for(lock, kPollInterval);
  }
}

// Parses chunk `index` (claimed) and hands its result over.
void ParallelChunks::parse_claimed(size_t index) {
  std::unique_ptr<Result> result;
  const double cpu_start = thread_cpu_seconds();
  try {
    result = parse(plan_.chunk(index));
  } catch (const std::exception&) {
    result.reset();  // left to the unpickler, which reports it as one thread would
  }
  const double cpu_used = thread_cpu_seconds() - cpu_start;
  {
    std::lock_guard lock(mutex_);
    parse_cpu_s_ += cpu_used;
    slots_[index].result = std::move(result);
    slots_[index].state = State::Done;
  }
  changed_.notify_all();
}

void ParallelChunks::work() {
  size_t index = 0;
  while (claim(index)) parse_claimed(index);
}

// Parses `chunk` alone; nullptr (or a throw) when only the whole file's parse can.
std::unique_ptr<ParallelChunks::Result> ParallelChunks::parse(const pickle::PickleChunk& chunk) const {
  if (chunk.depth + 2 >= limits_.max_depth || chunk.depth + 2 >= limits_.max_stack ||
      chunk.memo_base >= limits_.max_memo)
    return nullptr;
  const uint64_t bytes = chunk.end - chunk.begin;
  auto result = std::make_unique<Result>();
  SnapshotReducer reducer(result->tables);
  reducer.collect_chunk(&result->events);
  // Limits no looser than the whole file's at this point: where they differ, it parses the chunk.
  pickle::UnpicklerLimits limits = limits_;
  limits.max_depth = static_cast<uint32_t>(limits_.max_depth - chunk.depth);
  limits.max_stack = static_cast<size_t>(limits_.max_stack - chunk.depth);
  limits.max_memo = static_cast<size_t>(std::min<uint64_t>(limits_.max_memo - chunk.memo_base, bytes));
  RangeSource input(source_, chunk.begin, bytes);
  PlanStrings strings(plan_, source_, *strings_before_);
  pickle::Unpickler unpickler(input, result->tables.strings, &reducer, limits);
  const Value list = unpickler.run_chunk({chunk.begin, chunk.memo_base, &strings, plan_.string_bits()});
  for (const Value item : unpickler.container(list).items) {
    if (item.kind != Kind::EventRun) return nullptr;
    result->items.push_back(item);
  }
  for (size_t i = 0;; ++i) {
    const auto value = unpickler.chunk_memo(i);
    if (!value) break;
    if (!mappable(*value)) return nullptr;
    result->memo.push_back(*value);
  }
  if (unpickler.has_sparse_memo()) return nullptr;
  return result;
}

// Chunks that start before `offset` are behind the unpickler: it parsed them itself.
void ParallelChunks::pass_chunks_before(uint64_t offset) {
  const size_t published = plan_.chunks();
  std::lock_guard lock(mutex_);
  while (cursor_ < published && plan_.chunk(cursor_).begin < offset) {
    if (slots_[cursor_].state == State::Waiting) slots_[cursor_].state = State::Unpickler;
    slots_[cursor_].result.reset();
    ++cursor_;
  }
  unpickler_offset_ = std::max(unpickler_offset_, offset);
}

uint64_t ParallelChunks::next_start(uint64_t offset) {
  pass_chunks_before(offset);
  changed_.notify_all();  // the lookahead moved
  while (options_.unpickler_waits && cursor_ >= plan_.chunks() && !plan_.finished()) {
    std::this_thread::sleep_for(kPollInterval);
    pass_chunks_before(offset);
  }
  const uint64_t ask_again = offset + std::max<uint64_t>(kAskAgainBytes, options_.lookahead_bytes / 2);
  if (cursor_ < plan_.chunks()) return std::min(plan_.chunk(cursor_).begin, ask_again);
  if (plan_.finished() && cursor_ >= plan_.chunks()) return UINT64_MAX;
  return offset + kAskAgainBytes;
}

bool ParallelChunks::splice(uint64_t offset, const pickle::SpliceState& state,
                            const pickle::Unpickler& unpickler, pickle::SplicedChunk& out) {
  pass_chunks_before(offset);
  if (cursor_ >= plan_.chunks() || plan_.chunk(cursor_).begin != offset) return false;
  const size_t index = cursor_;
  std::unique_ptr<Result> result;
  {
    std::unique_lock lock(mutex_);
    if (slots_[index].state == State::Waiting && !options_.unpickler_waits) {
      slots_[index].state = State::Unpickler;  // no worker started it: parsing it here is sooner
      return false;
    }
    // While a worker finishes this chunk, the unpickler parses a later one as a worker would.
    while (slots_[index].state != State::Done) {
      size_t later = 0;
      if (take_next(later)) {
        lock.unlock();
        parse_claimed(later);
        lock.lock();
      } else {
        changed_.wait_for(lock, kPollInterval);
      }
    }
    result = std::move(slots_[index].result);
  }
  const pickle::PickleChunk& chunk = plan_.chunk(index);
  if (!result || state.memo_size != chunk.memo_base || state.depth != chunk.depth ||
      reducer_.skips_device(state.slot))
    return false;
  const double cpu_start = thread_cpu_seconds();
  const bool merged = merge(*result, unpickler, out);
  const double cpu_used = thread_cpu_seconds() - cpu_start;
  std::lock_guard lock(mutex_);
  merge_cpu_s_ += cpu_used;
  if (!merged) return false;
  out.end = chunk.end;
  ++spliced_;
  spliced_events_ += result->events.events.size();
  return true;
}

namespace {

// The whole file's ids for a chunk's: built in the chunk's id order, which is the order one
// thread would have met them in, so new ids come out the same.
struct IdMaps {
  std::vector<StringId> strings;
  std::vector<FrameId> frames;
  std::vector<StackId> stacks;
  std::vector<StreamId> streams;  // kNoIndex until the first event that uses it
};

// The whole file's value at memo `index` when it is of a kind in `kinds`.
std::optional<Value> resolved(const pickle::Unpickler& unpickler, uint32_t index,
                              std::initializer_list<Kind> kinds) {
  const auto value = unpickler.memo_at(index);
  if (!value || std::find(kinds.begin(), kinds.end(), value->kind) == kinds.end()) return std::nullopt;
  return value;
}

StackId whole_stack(Value frames) { return frames.kind == Kind::Stack ? frames.id : 0; }

}  // namespace

// Everything that could make one thread's parse differ is checked before anything is changed.
bool ParallelChunks::merge(const Result& result, const pickle::Unpickler& unpickler,
                           pickle::SplicedChunk& out) {
  const Snapshot& local = result.tables;
  const ChunkEvents& events = result.events;
  // Frames and frames lists the chunk refers back to must be what they were named as.
  for (StackId s = 1; s < local.stacks.size(); ++s) {
    for (FrameId f : local.stacks.frames(s)) {
      if ((f & ChunkEvents::kExternal) && !resolved(unpickler, f & ~ChunkEvents::kExternal, {Kind::Frame}))
        return false;
    }
  }
  for (const TraceEvent& e : events.events) {
    if ((e.stack & ChunkEvents::kExternal) &&
        !resolved(unpickler, e.stack & ~ChunkEvents::kExternal, {Kind::Stack, Kind::EmptyList, Kind::None}))
      return false;
  }
  for (const Value v : result.memo) {
    if (v.kind == Kind::External) {
      const auto whole = unpickler.memo_at(v.id);
      if (!whole || !mappable(*whole)) return false;
    }
  }
  // The limits add_event enforces: past them, one thread's error message is wanted.
  if (reducer_.events().size() + events.events.size() >= kNoIndex ||
      snapshot_.event_extras.size() + events.sides.size() + local.streams.size() >= TraceEvent::kLinkLimit)
    return false;

  IdMaps maps;
  maps.strings.resize(local.strings.size());
  for (StringId s = 0; s < local.strings.size(); ++s)
    maps.strings[s] = snapshot_.strings.intern(local.strings.view(s));
  auto string = [&](StringId s) { return maps.strings[s]; };
  maps.frames.resize(local.frames.size());
  for (FrameId f = 0; f < local.frames.size(); ++f) {
    Frame frame = local.frames.get(f);
    for (StringId* id : {&frame.name, &frame.filename, &frame.fx_node_op, &frame.fx_node_name,
                         &frame.fx_node_target, &frame.fx_original_trace})
      *id = string(*id);
    maps.frames[f] = snapshot_.frames.intern(frame);
  }
  maps.stacks.resize(local.stacks.size());
  std::vector<FrameId> frames;
  for (StackId s = 1; s < local.stacks.size(); ++s) {
    frames.clear();
    for (FrameId f : local.stacks.frames(s)) {
      frames.push_back((f & ChunkEvents::kExternal) ? unpickler.memo_at(f & ~ChunkEvents::kExternal)->id
                                                    : maps.frames[f]);
    }
    maps.stacks[s] = snapshot_.stacks.intern(frames);
  }
  maps.streams.assign(local.streams.size(), kNoIndex);

  const uint32_t first_event = static_cast<uint32_t>(reducer_.events().size());
  size_t side = 0;
  for (uint32_t i = 0; i < events.events.size(); ++i) {
    TraceEvent event = events.events[i];
    event.stack = (event.stack & ChunkEvents::kExternal)
                      ? whole_stack(*unpickler.memo_at(event.stack & ~ChunkEvents::kExternal))
                      : maps.stacks[event.stack];
    EventExtra extra;
    RareEventFields rare;
    if (side < events.sides.size() && events.sides[side].event == i) {
      extra = events.sides[side].extra;
      rare = events.sides[side].rare;
      ++side;
      extra.compile_context = string(extra.compile_context);
      extra.user_metadata = string(extra.user_metadata);
      rare.unknown_action = string(rare.unknown_action);
      rare.forward_frames = string(rare.forward_frames);
    }
    StreamId& stream = maps.streams[event.link()];
    if (stream == kNoIndex) stream = snapshot_.streams.intern(local.streams.value(event.link()));
    extra.stream = stream;
    reducer_.add_event(event, extra, rare);
  }

  out.items.reserve(result.items.size());
  for (const Value run : result.items)
    out.items.push_back(Value::handle(Kind::EventRun, first_event + run.id, run.aux));
  out.memo.reserve(result.memo.size());
  for (Value v : result.memo) {
    switch (v.kind) {
      case Kind::String:
        v.id = string(v.id);
        break;
      case Kind::Frame:
        v.id = maps.frames[v.id];
        break;
      case Kind::Stack:
        v.id = maps.stacks[v.id];
        break;
      case Kind::Event:
        v.id = first_event + v.id;
        break;
      case Kind::External:
        v = *unpickler.memo_at(v.id);
        break;
      default:
        break;
    }
    out.memo.push_back(v);
  }
  return true;
}

}  // namespace snapscope
