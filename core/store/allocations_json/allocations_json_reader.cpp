// allocations.json reader. A first pass finds the scalars and the text of every integer column;
// the columns are then parsed straight into the replay inputs (no intermediate integer
// columns: at 10M allocations those were 1 GB more at the peak and a copy), one thread per
// destination array, a chunk of elements at a time across all its columns so that each chunk
// is written while it is in cache.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <limits>
#include <optional>

#include "core/snapshot/snapshot_reader.h"
#include "core/store/allocations_json/allocations_json.h"
#include "core/store/allocations_json/allocations_json_columns.h"
#include "core/store/allocations_json/allocations_json_sax.h"
#include "core/store/allocations_json/mapped_file.h"
#include "core/util/parallel_jobs.h"
#include "core/util/prefault.h"
#include "core/util/zstd_codec.h"

namespace snapscope {
namespace {

using allocations_json::ElementField;
using allocations_json::RawColumn;
using allocations_json::RawDevice;
using allocations_json::RawFile;
using allocations_json::RawReplay;

// A column's text is not a flat list of strict JSON integers: the full parser reads the file.
struct ColumnDeclined {};

// Elements (or actions) filled per chunk across all their columns: 512 KiB of elements.
constexpr size_t kChunk = 16384;

// Validation messages name the file; every check of the reader throws through here.
class Failer {
 public:
  explicit Failer(std::string path) : path_(std::move(path)) {}
  [[noreturn]] void fail(const std::string& reason) const { throw InputError(path_ + ": " + reason); }

 private:
  std::string path_;
};

// A column that must hold exactly `expected` values, read one at a time.
class DenseColumn {
 public:
  DenseColumn(const Failer& failer, const RawColumn& column, std::string name, size_t expected)
      : failer_(failer),
        cursor_(column.cursor()),
        name_(std::move(name)),
        expected_(expected),
        most_values_(column.deferred ? column.text.size() / 2 + 1 : column.values.size()) {}

  // What the column can hold at most: a bogus count must not reserve more memory than that
  // (a number takes at least two characters with its comma).
  size_t reservable(size_t wanted) const { return std::min(wanted, most_values_); }

  // Calls store(i, value) for i in [begin, end).
  template <class Store>
  void read(size_t begin, size_t end, Store&& store) {
    int64_t value = 0;
    for (size_t i = begin; i < end; ++i) {
      if (!cursor_.next(value)) wrong_length(i);
      store(i, value);
    }
  }
  // After the last chunk: nothing may follow.
  void finish() {
    const size_t extra = cursor_.count_rest();
    if (cursor_.declined()) throw ColumnDeclined{};
    if (extra != 0) wrong_length(expected_ + extra);
  }
  [[noreturn]] void invalid() const { failer_.fail("invalid value in column " + name_); }

 private:
  [[noreturn]] void wrong_length(size_t count) {
    if (cursor_.declined()) throw ColumnDeclined{};
    failer_.fail("column " + name_ + " has " + std::to_string(count) + " values, expected " +
                 std::to_string(expected_));
  }

  const Failer& failer_;
  IntCursor cursor_;
  std::string name_;
  size_t expected_;
  size_t most_values_;
};

bool is_event(int64_t value) { return value >= -1 && value <= kMaxEventIndex; }

// Elements and actions read so far, as a share of all of them (a progress bar's).
class ReadCounter {
 public:
  ReadCounter(size_t total, std::atomic<float>* fraction) : total_(total), fraction_(fraction) {}
  void add(size_t items) {
    if (fraction_ == nullptr || total_ == 0) return;
    const size_t done = done_.fetch_add(items, std::memory_order_relaxed) + items;
    fraction_->store(static_cast<float>(done) / static_cast<float>(total_), std::memory_order_relaxed);
  }

 private:
  std::atomic<size_t> done_ = 0;
  size_t total_;
  std::atomic<float>* fraction_;
};

// Everything of one replay input that is known before its columns are read.
struct ReplayPlan {
  const RawReplay* raw = nullptr;
  ReplayInput* input = nullptr;
  size_t element_count = 0;
  size_t action_count = 0;

  const RawColumn& column(const Failer& failer, const std::string& name) const {
    const auto it = raw->columns.find(name);
    if (it == raw->columns.end()) failer.fail("missing column " + name);
    return it->second;
  }
};

// Fills one replay input's elements (and initial stack) from its columns.
class ElementsReader {
 public:
  ElementsReader(const Failer& failer, const ReplayPlan& plan, ReadCounter& counter)
      : failer_(failer), plan_(plan), counter_(counter) {}

  void run() {
    ReplayInput& input = *plan_.input;
    const size_t count = plan_.element_count;
    DenseColumn addr = dense(ElementField::Addr), size = dense(ElementField::Size);
    DenseColumn alloc = dense(ElementField::AllocEvent), free = dense(ElementField::FreeEvent);
    DenseColumn stack = dense(ElementField::Stack);
    input.elements.reserve(addr.reservable(count));
    advise_huge_pages(input.elements);
    int64_t addr_sum = 0, alloc_sum = 0;
    for (size_t begin = 0; begin < count; begin += kChunk) {
      const size_t end = std::min(count, begin + kChunk);
      input.elements.resize(end);  // defaults for the chunk, while it is in cache
      ReplayElement* elements = input.elements.data();
      addr.read(begin, end, [&](size_t i, int64_t value) {
        addr_sum = allocations_json::undelta(addr_sum, value);
        elements[i].addr = static_cast<uint64_t>(addr_sum);
      });
      size.read(begin, end,
                [&](size_t i, int64_t value) { elements[i].size = static_cast<uint64_t>(value); });
      alloc.read(begin, end, [&](size_t i, int64_t value) {
        alloc_sum = allocations_json::undelta(alloc_sum, value);
        if (!is_event(alloc_sum)) alloc.invalid();
        elements[i].alloc_event = static_cast<EventIndex>(alloc_sum);
      });
      free.read(begin, end, [&](size_t i, int64_t value) {
        if (value > kMaxEventIndex) free.invalid();  // keeps the sum below from overflowing
        const int64_t event = allocations_json::free_event_from_written(elements[i].alloc_event, value);
        if (!is_event(event)) free.invalid();
        elements[i].free_event = static_cast<EventIndex>(event);
      });
      stack.read(begin, end, [&](size_t i, int64_t value) {
        if (value < 0 || value > int64_t{std::numeric_limits<StackId>::max()}) stack.invalid();
        elements[i].stack = static_cast<StackId>(value);
      });
      counter_.add(end - begin);
    }
    for (DenseColumn* column : {&addr, &size, &alloc, &free, &stack}) column->finish();
    read_refs(ElementField::Block, input.element_blocks);
    read_refs(ElementField::Segment, input.element_segments);
    read_sparse(ElementField::Origin, [](ReplayElement& e, int64_t value) {
      if (value < 0 || value > static_cast<int64_t>(Origin::SnapshotSegment)) return false;
      e.origin = static_cast<Origin>(value);
      return true;
    });
    read_sparse(ElementField::MergedFree, [](ReplayElement& e, int64_t value) {
      if (value != 0 && value != 1) return false;
      e.merged_free = value == 1;
      return true;
    });
    check_source_events();
    read_initial_stack();
  }

 private:
  std::string column_name(ElementField field) const {
    return "elements." + std::string(allocations_json::element_column(field).name);
  }
  const RawColumn& raw_column(const std::string& name) const { return plan_.column(failer_, name); }
  DenseColumn dense(ElementField field) const {
    const std::string name = column_name(field);
    return DenseColumn(failer_, raw_column(name), name, plan_.element_count);
  }

  // (elem, value) pairs, elem strictly ascending; calls visit(elem, value).
  template <class Visit>
  void read_pairs(ElementField field, Visit&& visit) const {
    const std::string name = column_name(field);
    IntCursor cursor = raw_column(name).cursor();
    int64_t elem = 0, value = 0, previous = -1;
    while (cursor.next(elem)) {
      if (!cursor.next(value)) {
        if (cursor.declined()) throw ColumnDeclined{};
        failer_.fail("column " + name + " is not a list of (index, value) pairs");
      }
      if (elem <= previous || elem >= static_cast<int64_t>(plan_.element_count))
        failer_.fail("column " + name + ": element index out of order or range");
      if (!visit(static_cast<uint32_t>(elem), value)) failer_.fail("invalid value in column " + name);
      previous = elem;
    }
    if (cursor.declined()) throw ColumnDeclined{};
  }

  template <class Set>
  void read_sparse(ElementField field, Set&& set) const {
    read_pairs(field, [&](uint32_t elem, int64_t value) { return set(plan_.input->elements[elem], value); });
  }

  // Block / segment: -1 is the default (no entry).
  void read_refs(ElementField field, Column<ElementRef>& refs) const {
    read_pairs(field, [&](uint32_t elem, int64_t value) {
      if (value == -1) return true;
      if (value < 0 || value >= int64_t{kNoIndex}) return false;
      refs.push_back({elem, static_cast<uint32_t>(value)});
      return true;
    });
  }

  // Derived: [] (every value the usual one), or values that must be exactly that.
  void check_source_events() const {
    const std::string name = column_name(ElementField::SourceEvent);
    const RawColumn& raw = raw_column(name);
    if (raw.empty()) return;
    DenseColumn column(failer_, raw, name, plan_.element_count);
    const Column<ReplayElement>& elements = plan_.input->elements;
    column.read(0, elements.size(), [&](size_t i, int64_t value) {
      if (value != elements[i].source_event()) column.invalid();
    });
    column.finish();
  }

  void read_initial_stack() const {
    IntCursor cursor = raw_column("initial_stack").cursor();
    int64_t elem = 0;
    while (cursor.next(elem)) {
      if (elem < 0 || static_cast<size_t>(elem) >= plan_.element_count)
        failer_.fail("element index out of range in initial_stack");
      plan_.input->initial_stack.push_back(static_cast<uint32_t>(elem));
    }
    if (cursor.declined()) throw ColumnDeclined{};
  }

  const Failer& failer_;
  const ReplayPlan& plan_;
  ReadCounter& counter_;
};

// Fills one replay input's actions and their times.
class ActionsReader {
 public:
  ActionsReader(const Failer& failer, const ReplayPlan& plan, ReadCounter& counter)
      : failer_(failer), plan_(plan), counter_(counter) {}

  void run() {
    ReplayInput& input = *plan_.input;
    const size_t count = plan_.action_count;
    DenseColumn elems = dense(allocations_json::kActionElem);
    const std::string time_name = "actions." + std::string(allocations_json::kActionTimeDelta);
    const RawColumn& time_raw = raw_column(time_name);
    const bool timed = !time_raw.empty();  // [] = recorded without timestamps
    DenseColumn times(failer_, time_raw, time_name, count);
    input.actions.reserve(elems.reservable(count));
    advise_huge_pages(input.actions);
    if (timed) input.action_time_us.reserve(times.reservable(count));
    int64_t elem_sum = 0, time_sum = 0;
    const auto element_count = static_cast<int64_t>(plan_.element_count);
    for (size_t begin = 0; begin < count; begin += kChunk) {
      const size_t end = std::min(count, begin + kChunk);
      input.actions.resize(end);
      ReplayAction* actions = input.actions.data();
      elems.read(begin, end, [&](size_t i, int64_t value) {
        elem_sum = allocations_json::undelta(elem_sum, value);
        if (elem_sum < 0 || elem_sum >= element_count) failer_.fail("element index out of range in actions");
        actions[i].elem = static_cast<uint32_t>(elem_sum);
      });
      counter_.add(end - begin);
      if (!timed) continue;
      ActionTimes& time_us = input.action_time_us;
      times.read(begin, end, [&](size_t, int64_t value) {  // in order: appended
        if (value == allocations_json::kNullValue) {
          time_us.push_back(kNoTime);
          return;
        }
        // A sum past int64 (or onto the kNoTime marker) is no time the writer could have written.
        if (__builtin_add_overflow(time_sum, value, &time_sum) || time_sum == kNoTime) {
          failer_.fail("time_us_delta sums past the 64-bit time range");
        }
        time_us.push_back(time_sum);
      });
    }
    elems.finish();
    if (timed) times.finish();
  }

 private:
  const RawColumn& raw_column(const std::string& name) const { return plan_.column(failer_, name); }
  DenseColumn dense(std::string_view column) const {
    const std::string name = "actions." + std::string(column);
    return DenseColumn(failer_, raw_column(name), name, plan_.action_count);
  }

  const Failer& failer_;
  const ReplayPlan& plan_;
  ReadCounter& counter_;
};

// Derived: actions' events are their elements' (ActionEventWalk), so writers leave event_delta
// [] and a written one must hold exactly those. Runs once elements and actions are read.
void check_action_events(const Failer& failer, const ReplayPlan& plan) {
  const std::string name = "actions." + std::string(allocations_json::kActionEventDelta);
  const RawColumn& raw = plan.column(failer, name);
  if (raw.empty()) return;
  DenseColumn column(failer, raw, name, plan.action_count);
  const ReplayInput& input = *plan.input;
  ActionEventWalk walk(input);
  int64_t event_sum = 0;
  column.read(0, input.actions.size(), [&](size_t i, int64_t value) {
    event_sum = allocations_json::undelta(event_sum, value);
    if (!is_event(event_sum) || event_sum != walk.next(input.actions[i])) failer.fail("invalid action event");
  });
  column.finish();
}

class Assembler {
 public:
  Assembler(const std::string& path, std::atomic<float>* fraction) : failer_(path), fraction_(fraction) {}

  AllocationsFile assemble(const RawFile& raw) {
    if (raw.format != allocations_json::kFormatName) failer_.fail("not a snapscope allocations file");
    if (!raw.version || *raw.version < kOldestReadableAllocationsJsonVersion ||
        *raw.version > kAllocationsJsonVersion) {
      failer_.fail("unsupported format version " +
                   (raw.version ? std::to_string(*raw.version) : "(missing)") + " (expected " +
                   std::to_string(kOldestReadableAllocationsJsonVersion) + " to " +
                   std::to_string(kAllocationsJsonVersion) + ")");
    }
    AllocationsFile file;
    file.source_file = raw.source_file;
    file.source_bytes = raw.source_bytes;
    file.devices.resize(raw.devices.size());
    std::vector<ReplayPlan> plans;
    plans.reserve(2 * raw.devices.size());
    size_t d = 0;
    for (const RawDevice& device : raw.devices) {
      DeviceLayout& layout = file.devices[d++];
      layout.device = device_id(device);
      plans.push_back(plan(device.blocks, layout.device, TimelineKind::Blocks, layout.blocks));
      plans.push_back(plan(device.segments, layout.device, TimelineKind::Segments, layout.segments));
    }
    size_t items = 0;
    for (const ReplayPlan& replay : plans) items += replay.element_count + replay.action_count;
    ReadCounter counter(items, fraction_);
    // One job per destination array (elements, actions), so no two threads write one array.
    ParallelJobs jobs;
    std::atomic<bool> declined = false;
    const auto job = [&](auto read) {
      return [&declined, read] {
        try {
          read();
        } catch (const ColumnDeclined&) {
          declined = true;
        }
      };
    };
    for (const ReplayPlan& replay : plans) {
      jobs.add(text_bytes(*replay.raw, "elements."),
               job([&] { ElementsReader(failer_, replay, counter).run(); }));
      jobs.add(text_bytes(*replay.raw, "actions."),
               job([&] { ActionsReader(failer_, replay, counter).run(); }));
    }
    try {
      jobs.run();
    } catch (const InputError&) {
      if (!declined) throw;  // a column's text was not read: the full parser decides
    }
    if (declined) throw ColumnDeclined{};
    for (const ReplayPlan& replay : plans) check_action_events(failer_, replay);
    return file;
  }

 private:
  int device_id(const RawDevice& raw) const {
    if (!raw.device || *raw.device < 0 || *raw.device > std::numeric_limits<int>::max()) {
      failer_.fail("device entry without a valid \"device\"");
    }
    return static_cast<int>(*raw.device);
  }

  size_t count(const std::optional<int64_t>& value, const char* name) const {
    if (!value || *value < 0 || *value >= int64_t{kNoIndex})
      failer_.fail(std::string("missing or invalid ") + name);
    return static_cast<size_t>(*value);
  }

  ReplayPlan plan(const RawReplay& raw, int device, TimelineKind kind, ReplayInput& input) const {
    const std::string_view name = allocations_json::kind_name(kind);
    if (!raw.present || raw.kind != name)
      failer_.fail("device " + std::to_string(device) + ": missing " + std::string(name));
    input.device = device;
    input.kind = kind;
    input.synthetic_action = raw.synthetic_action.value_or(false);
    return {&raw, &input, count(raw.element_count, "element_count"), count(raw.action_count, "action_count")};
  }

  // The work of one job, to share the jobs out evenly.
  static size_t text_bytes(const RawReplay& raw, std::string_view prefix) {
    size_t bytes = 0;
    for (const auto& [name, column] : raw.columns) {
      if (name.starts_with(prefix)) bytes += column.deferred ? column.text.size() : 8 * column.values.size();
    }
    return bytes;
  }

  Failer failer_;
  std::atomic<float>* fraction_;
};

// The file's JSON text: the mapped file itself, or what its Zstandard frames hold.
class LayoutText {
 public:
  LayoutText(const std::string& path, size_t max_text_bytes) : file_(path) {
    if (!starts_zstd_frame(file_.text())) return;
    decoded_ = zstd_decompress(file_.text(), max_text_bytes);
    if (decoded_->error) throw InputError(path + ": " + *decoded_->error);
  }
  std::string_view text() const { return decoded_ ? decoded_->content() : file_.text(); }

 private:
  MappedFile file_;
  std::optional<ZstdDecoded> decoded_;
};

size_t default_max_text_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGE_SIZE);
  const size_t half_memory =
      pages > 0 && page_size > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(page_size) / 2 : 0;
  return std::max(half_memory, size_t{1} << 30);
}

}  // namespace

std::filesystem::path allocations_file_in(const std::filesystem::path& dir) {
  std::error_code ignored;
  for (const char* name : {kAllocationsFileName, kPlainAllocationsFileName}) {
    if (std::filesystem::exists(dir / name, ignored)) return dir / name;
  }
  return {};
}

AllocationsFile read_allocations_json(const std::string& path, std::atomic<float>* fraction,
                                      size_t max_text_bytes) {
  const LayoutText file(path, max_text_bytes != 0 ? std::min(max_text_bytes, default_max_text_bytes())
                                                  : default_max_text_bytes());
  {
    RawFile raw;
    if (allocations_json::parse_raw_file_fast(file.text(), raw)) {
      try {
        return Assembler(path, fraction).assemble(raw);
      } catch (const ColumnDeclined&) {
        // a column the strict fast path does not read: the full parser decides
      }
    }
  }
  RawFile raw;
  if (const auto error = allocations_json::parse_raw_file_full(file.text(), raw))
    throw InputError(path + ": " + *error);
  return Assembler(path, fraction).assemble(raw);
}

}  // namespace snapscope
