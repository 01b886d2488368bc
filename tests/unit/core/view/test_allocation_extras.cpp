// The inspector's details of a backward-pass allocation in a CUDA graph's private pool: its
// forward_frames ("forward stack") and pool_id go from the pickle through elements.db into
// AllocationDetails, its text and its JSON (print selection).
#include <doctest/doctest.h>

#include <string>

#include "core/allocator/private_pool_input.h"
#include "core/convert/convert.h"
#include "core/cursor/allocation_search.h"
#include "core/document/document.h"
#include "core/pickle/pickle_writer.h"
#include "core/store/allocations_json/allocations_json.h"
#include "core/view/allocation_details.h"
#include "unit/support/generated_snapshot.h"
#include "unit/support/test_store_fixture.h"
#include "unit/support/trace_pickle.h"

using namespace snapscope;
using snapscope::test::TempDir;

namespace {

void write_frame(PickleWriter& w, const char* filename, int64_t line, const char* name) {
  w.begin_dict();
  w.str("filename");
  w.str(filename);
  w.str("line");
  w.integer(line);
  w.str("name");
  w.str(name);
  w.end_dict();
}

// Writes pickle `bytes` into `dir`, converts it to dir/out and returns its elements.db path.
std::string converted_db(const TempDir& dir, const std::string& bytes) {
  test::write_file(dir / "snapshot.pickle", bytes);
  test::convert_into(dir / "snapshot.pickle", dir / "out");
  return (dir / "out" / "elements.db").string();
}

// Opens an alloc trace entry's dict with its address and size (the caller adds keys and ends it).
void begin_alloc(PickleWriter& w, uint64_t address, uint64_t size) {
  w.begin_dict();
  w.str("action");
  w.str("alloc");
  w.str("addr");
  w.integer(static_cast<int64_t>(address));
  w.str("size");
  w.integer(static_cast<int64_t>(size));
}

// One alloc with both extras, then one whose pool is named the way memory_viz reads it.
std::string backward_snapshot() {
  return test::one_trace_pickle([](PickleWriter& w) {
    for (int i = 0; i < 2; ++i) {
      begin_alloc(w, 0x1000 + 0x1000 * i, 4096);
      w.str("stream");
      w.integer(0);
      w.str("time_us");
      w.integer(10 + i);
      w.str("frames");
      w.begin_list();
      write_frame(w, "model.py", 30, "backward");
      w.end_list();
      if (i == 0) {
        w.str("forward_frames");
        w.begin_list();
        write_frame(w, "model.py", 12, "linear");
        write_frame(w, "train.py", 5, "forward");
        w.end_list();
        w.str("pool_id");
        w.begin_tuple();
        w.integer(1);
        w.integer(7);
        w.end_tuple();
      } else {
        w.str("segment_pool_id");  // memory_viz's name for an element's pool
        w.begin_tuple();
        w.integer(2);
        w.integer(3);
        w.end_tuple();
      }
      w.end_dict();
    }
  });
}

}  // namespace

TEST_CASE("allocation details: forward_frames as traceback strings become a forward stack") {
  TempDir dir;
  std::string out;
  PickleWriter w(out, 4, PickleWriter::Memo::Auto);
  w.begin_dict();
  w.str("device_traces");
  w.begin_list();
  w.begin_list();
  for (int i = 0; i < 2; ++i) {
    begin_alloc(w, 0x1000 * (i + 1), 512);
    w.str("forward_frames");  // memory_viz joins these; a traceback lists the outermost call first
    w.begin_list();
    if (i == 0) {
      w.str("  File \"train.py\", line 40, in step\n    out = model(x)\n");
      w.str("  File \"model.py\", line 12, in forward\n    y = self.linear(x)\n");
    } else {
      w.str("not a traceback, ");
      w.str("kept as text\n");
    }
    w.end_list();
    w.end_dict();
  }
  w.end_list();
  w.end_list();
  w.end_dict();
  w.finish();
  const ElementsDbReader reader(converted_db(dir, out));
  const AllocationDetails traced = read_allocation_details(reader, 0, TimelineKind::Blocks, 0);
  CHECK(traced.forward_frames == "model.py:12:forward\ntrain.py:40:step");
  REQUIRE(traced.forward_stack.size() == 2);
  CHECK(traced.forward_stack[0].filename == "model.py");
  CHECK(traced.forward_stack[0].line == 12);
  CHECK(traced.forward_stack[0].name == "forward");
  CHECK(read_allocation_details(reader, 0, TimelineKind::Blocks, 1).forward_frames ==
        "not a traceback, kept as text");
}

TEST_CASE("allocation details: forward stack and private pool of the alloc event") {
  TempDir dir;
  const ElementsDbReader reader(converted_db(dir, backward_snapshot()));

  const AllocationDetails first = read_allocation_details(reader, 0, TimelineKind::Blocks, 0);
  CHECK(first.forward_frames == "model.py:12:linear\ntrain.py:5:forward");
  REQUIRE(first.pool_id.has_value());
  CHECK(*first.pool_id == std::array<int64_t, 2>{1, 7});
  const std::string text = details_to_text(first, false);
  CHECK(text.find("pool: (1, 7)\n") != std::string::npos);
  CHECK(text.find("forward stack:\nmodel.py:12:linear\ntrain.py:5:forward\n") != std::string::npos);
  const nlohmann::json json = details_to_json(first, false);
  CHECK(json["forward_frames"] == "model.py:12:linear\ntrain.py:5:forward");
  CHECK(json["pool_id"] == nlohmann::json::array({1, 7}));

  const AllocationDetails second = read_allocation_details(reader, 0, TimelineKind::Blocks, 1);
  CHECK(second.forward_frames.empty());
  REQUIRE(second.pool_id.has_value());
  CHECK(*second.pool_id == std::array<int64_t, 2>{2, 3});

  // The private pools view takes an event's own pool even where no end-of-trace segment is.
  LoadProgress progress;
  const auto document = open_document((dir / "out").string(), progress);
  const Timeline& blocks = document->devices.at(0).blocks;
  const PrivatePoolInput pools = private_pool_input_from_db(reader.path(), blocks);
  REQUIRE(pools.pools.size() == 2);
  CHECK(pools.pools[pools.element_pool.at(0)].pool == std::array<int64_t, 2>{1, 7});
  CHECK(pools.pools[pools.element_pool.at(1)].pool == std::array<int64_t, 2>{2, 3});
}

namespace {

// A trace: alloc A, alloc B, annotate A twice ("first", then "second"), free A, alloc A's
// address again as C, annotate C; an annotate of an address that holds nothing is ignored.
std::string annotated_snapshot() {
  return test::one_trace_pickle([](PickleWriter& w) {
    const auto event = [&w](const char* action, int64_t addr, int64_t time, const char* note) {
      w.begin_dict();
      w.str("action");
      w.str(action);
      w.str("addr");
      w.integer(addr);
      w.str("size");
      w.integer(4096);
      w.str("stream");
      w.integer(0);
      w.str("time_us");
      w.integer(time);
      w.str("frames");
      w.begin_list();
      write_frame(w, "train.py", 40 + static_cast<int64_t>(time), note ? "keep_for_backward" : "step");
      w.end_list();
      if (note) {
        w.str("user_metadata");
        w.str(note);
      }
      w.end_dict();
    };
    event("alloc", 0x1000, 1, nullptr);
    event("alloc", 0x2000, 2, nullptr);
    event("annotate", 0x1000, 3, "first");
    event("annotate", 0x1000, 4, "second");
    event("annotate", 0x9000, 5, "nothing there");
    event("free_completed", 0x1000, 6, nullptr);
    event("alloc", 0x1000, 7, nullptr);
    event("annotate", 0x1000, 8, "third");
  });
}

}  // namespace

TEST_CASE("allocation details: annotate events are the notes of the allocation live at their address") {
  TempDir dir;
  const ElementsDbReader db(converted_db(dir, annotated_snapshot()));

  // Elements in memory_viz order: A (alloc #0), B (#1), C (#6); the annotates are not elements.
  const AllocationDetails a = read_allocation_details(db, 0, TimelineKind::Blocks, 0);
  REQUIRE(a.notes.size() == 2);
  CHECK(a.notes[0] == MemoryNote{2, 3, "first", "train.py:43 (keep_for_backward)"});
  CHECK(a.notes[1].event == 3);
  CHECK(a.notes[1].metadata == "second");
  CHECK(read_allocation_details(db, 0, TimelineKind::Blocks, 1).notes.empty());
  const AllocationDetails c = read_allocation_details(db, 0, TimelineKind::Blocks, 2);
  REQUIRE(c.notes.size() == 1);
  CHECK(c.notes[0].metadata == "third");
  CHECK(c.notes[0].event == 7);

  const nlohmann::json json = details_to_json(a, false);
  REQUIRE(json["notes"].size() == 2);
  CHECK(json["notes"][1]["metadata"] == "second");
  CHECK(json["notes"][1]["time_us"] == 4);
  CHECK(details_to_text(a, false).find("note at event 2: first (train.py:43 (keep_for_backward))") !=
        std::string::npos);

  // meta: search finds the allocation a note names, not the alloc event's own metadata only.
  const auto second = db.notes_with_metadata(0, "SECOND");
  REQUIRE(second.size() == 1);
  CHECK(second[0].address == 0x1000);
  CHECK(second[0].event == 3);
  const Timeline blocks(
      read_allocations_json((dir / "out" / "allocations.json.zst").string()).devices.at(0).blocks);
  CHECK(elements_live_at(blocks, second) == std::vector<uint32_t>{0});
  CHECK(elements_live_at(blocks, db.notes_with_metadata(0, "third")) == std::vector<uint32_t>{2});
  CHECK(elements_live_at(blocks, db.notes_with_metadata(0, "nothing there")).empty());
  CHECK(db.notes_with_metadata(0, "absent").empty());
}
