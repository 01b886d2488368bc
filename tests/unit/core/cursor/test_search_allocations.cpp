// Allocation search: query parsing (frame text vs hex address forms), intern-level frame
// matching, address containment, and next / previous order in time.
#include <doctest/doctest.h>

#include "core/cursor/allocation_search.h"
#include "unit/support/test_analysis_fixtures.h"

using namespace snapscope;
using namespace snapscope::testing;

namespace {

// The same frames and stacks as model_stacks(), as a StackCatalog.
std::shared_ptr<const StackCatalog> model_catalog() {
  const FakeStackSource fake = model_stacks();
  std::vector<std::string> strings{""};
  auto intern = [&](const std::string& text) {
    strings.push_back(text);
    return static_cast<StringId>(strings.size() - 1);
  };
  std::vector<Frame> frames;
  for (const FakeFrame& frame : fake.frames)
    frames.push_back({intern(frame.name), intern(frame.filename), frame.line});
  std::vector<uint64_t> begin{0};
  std::vector<FrameId> stack_frames;
  for (const auto& stack : fake.stacks) {
    stack_frames.insert(stack_frames.end(), stack.begin(), stack.end());
    begin.push_back(stack_frames.size());
  }
  return std::make_shared<StackCatalog>(std::move(strings), std::move(frames), std::move(begin),
                                        std::move(stack_frames));
}

// model_replay with addresses: element i at 0x1000 * (i + 1).
Timeline addressed_timeline() {
  ReplayInput input = model_replay();
  for (size_t i = 0; i < input.elements.size(); ++i) input.elements[i].addr = 0x1000 * (i + 1);
  return Timeline(std::move(input));
}

std::vector<uint32_t> search(const Timeline& timeline, const StackCatalog& catalog, std::string_view text,
                             SearchMode mode = SearchMode::Auto) {
  const auto query = parse_search_query(text, mode);
  REQUIRE(query.has_value());
  return search_allocations(timeline, catalog, *query);
}

}  // namespace

TEST_CASE("query parsing: frame text, hex addresses with and without 0x") {
  CHECK_FALSE(parse_search_query("   ", SearchMode::Auto).has_value());
  const auto frame = parse_search_query(" forward ", SearchMode::Auto);
  REQUIRE(frame);
  CHECK(frame->kind == SearchQuery::Kind::Frame);
  CHECK(frame->text == "forward");
  const auto prefixed = parse_search_query("0x7F00", SearchMode::Auto);
  REQUIRE(prefixed);
  CHECK(prefixed->kind == SearchQuery::Kind::Address);
  CHECK(prefixed->address == 0x7f00);
  const auto bare = parse_search_query("7f00", SearchMode::Auto);
  REQUIRE(bare);
  CHECK(bare->kind == SearchQuery::Kind::Address);
  CHECK(bare->address == 0x7f00);
  // Letters-only hex words stay frame searches unless Address mode is forced.
  CHECK(parse_search_query("add", SearchMode::Auto)->kind == SearchQuery::Kind::Frame);
  CHECK(parse_search_query("add", SearchMode::Address)->address == 0xadd);
  CHECK(parse_search_query("1234", SearchMode::Frame)->kind == SearchQuery::Kind::Frame);
  CHECK_FALSE(parse_search_query("zz", SearchMode::Address).has_value());
  CHECK_FALSE(parse_search_query("0x", SearchMode::Address).has_value());
}

TEST_CASE("query parsing: meta: searches user_metadata / compile_context") {
  const auto prefixed = parse_search_query("meta:  step 3 ", SearchMode::Auto);
  REQUIRE(prefixed);
  CHECK(prefixed->kind == SearchQuery::Kind::Metadata);
  CHECK(prefixed->text == "step 3");
  CHECK_FALSE(parse_search_query("meta:", SearchMode::Auto).has_value());
  CHECK(parse_search_query("ctx", SearchMode::Metadata)->kind == SearchQuery::Kind::Metadata);
  CHECK(parse_search_query("meta:x", SearchMode::Frame)->text == "meta:x");  // forced frame text
  // Found in elements.db, not in the catalog: search_allocations answers nothing for them.
  const Timeline timeline = addressed_timeline();
  CHECK(search_allocations(timeline, *model_catalog(), *prefixed).empty());
}

TEST_CASE("elements found elsewhere are put in allocation order, unknown ones dropped") {
  const Timeline timeline = addressed_timeline();
  // Elements 0..5 are allocated in the order 0, 1, 2, 4, 5 (3 was live before the trace).
  CHECK(in_allocation_order(timeline, {5, 0, 5, 99, 2}) == std::vector<uint32_t>{0, 2, 5});
}

TEST_CASE("elements are found by their allocation event, not by a free or an unknown event") {
  ReplayInput input = model_replay();
  // The model's actions (event = 2 * index): alloc 0, 1, 2, 4, 5, free 5, free 3.
  const std::vector<uint32_t> allocated = {0, 1, 2, 4, 5};
  for (size_t i = 0; i < allocated.size(); ++i)
    input.elements[allocated[i]].alloc_event = static_cast<EventIndex>(2 * i);
  input.elements[5].free_event = 10;
  input.elements[3].free_event = 12;
  const Timeline timeline(std::move(input));
  CHECK(elements_allocated_by(timeline, std::vector<int64_t>{2, 8, 10, 12, 99}) ==
        std::vector<uint32_t>{1, 5});
  CHECK(elements_allocated_by(timeline, std::vector<int64_t>{0}) == std::vector<uint32_t>{0});
  CHECK(elements_allocated_by(timeline, std::vector<int64_t>{}).empty());
}

TEST_CASE("frame text is matched once per string, then per frame, then per stack") {
  const auto catalog = model_catalog();
  const std::vector<bool> weights = stacks_with_frame_text(*catalog, "ALLOC_W");
  CHECK(weights == std::vector<bool>{false, true, false, false});
  const std::vector<bool> by_file = stacks_with_frame_text(*catalog, "model.py");
  CHECK(by_file == std::vector<bool>{false, true, true, false});
  const std::vector<bool> noise = stacks_with_frame_text(*catalog, "unwind");
  CHECK(noise == std::vector<bool>{false, true, true, true});
  CHECK(stacks_with_frame_text(*catalog, "no such frame") == std::vector<bool>(4, false));
}

TEST_CASE("frame search finds allocations by their allocation stack, in allocation order") {
  const auto catalog = model_catalog();
  const Timeline timeline = addressed_timeline();
  CHECK(search(timeline, *catalog, "alloc_weights") == std::vector<uint32_t>{0, 2, 5});
  // Element 3 was freed without a recorded alloc: its stack is the free's, so it never matches.
  CHECK(search(timeline, *catalog, "layers") == std::vector<uint32_t>{1});
  CHECK(search(timeline, *catalog, "Model.PY") == std::vector<uint32_t>{0, 1, 2, 5});
  CHECK(search(timeline, *catalog, "nothing like this").empty());
}

TEST_CASE("frame search accepts the location forms the UI prints") {
  const auto catalog = model_catalog();
  const Timeline timeline = addressed_timeline();
  CHECK(search(timeline, *catalog, "model.py:10") == std::vector<uint32_t>{0, 2, 5});
  CHECK(search(timeline, *catalog, "model.py:10 (alloc_weights)") == std::vector<uint32_t>{0, 2, 5});
  CHECK(search(timeline, *catalog, "model.py:20 (forward)") == std::vector<uint32_t>{0, 1, 2, 5});
  CHECK(search(timeline, *catalog, "layers.py:30 (alloc_act)") == std::vector<uint32_t>{1});
  CHECK(search(timeline, *catalog, "model.py:11").empty());            // the line must match
  CHECK(search(timeline, *catalog, "model.py:10 (forward)").empty());  // and the function
  CHECK(search(timeline, *catalog, "py:20 (forward)") == std::vector<uint32_t>{0, 1, 2, 5});
}

TEST_CASE("address search matches the allocation containing the address") {
  const auto catalog = model_catalog();
  const Timeline timeline = addressed_timeline();  // element 1: 0x2000, 300 bytes
  CHECK(search(timeline, *catalog, "0x2000") == std::vector<uint32_t>{1});
  CHECK(search(timeline, *catalog, "2000") == std::vector<uint32_t>{1});
  CHECK(search(timeline, *catalog, "0x212b") == std::vector<uint32_t>{1});  // 0x2000 + 299
  CHECK(search(timeline, *catalog, "0x212c").empty());                      // one past its end
  CHECK(search(timeline, *catalog, "0X4000") == std::vector<uint32_t>{3});  // live from t = 0
}

TEST_CASE("next and previous walk the matches in time and wrap around") {
  const auto catalog = model_catalog();
  const Timeline timeline = addressed_timeline();
  const std::vector<uint32_t> matches = search(timeline, *catalog, "alloc_weights");  // alloc states 1, 3, 5
  CHECK(next_match(timeline, matches, 0, std::nullopt) == 0u);
  CHECK(next_match(timeline, matches, 1, 0u) == 2u);
  CHECK(next_match(timeline, matches, 2, std::nullopt) == 2u);
  CHECK(next_match(timeline, matches, 3, 2u) == 5u);
  CHECK(next_match(timeline, matches, 5, 5u) == 0u);  // wraps
  CHECK(previous_match(timeline, matches, 4, std::nullopt) == 2u);
  CHECK(previous_match(timeline, matches, 3, 2u) == 0u);
  CHECK(previous_match(timeline, matches, 1, 0u) == 5u);  // wraps
  // Without a selection at the cursor, a match allocated right there counts as ahead and behind.
  CHECK(previous_match(timeline, matches, 3, std::nullopt) == 2u);
  CHECK_FALSE(next_match(timeline, {}, 0, std::nullopt).has_value());
}

TEST_CASE("a snapshot's catalog resolves stacks and frames like the snapshot") {
  Snapshot snapshot;
  const Frame outer{snapshot.strings.intern("train"), snapshot.strings.intern("train.py"), 7};
  const Frame inner{snapshot.strings.intern("matmul"), snapshot.strings.intern("ops.py"), 3};
  const FrameId outer_id = snapshot.frames.intern(outer), inner_id = snapshot.frames.intern(inner);
  const std::vector<FrameId> frames{inner_id, outer_id};
  const StackId stack = snapshot.stacks.intern(frames);
  const auto catalog = catalog_from_snapshot(snapshot);
  REQUIRE(catalog->stack_frames(stack).size() == 2);
  CHECK(catalog->stack_frames(stack)[0] == inner_id);
  CHECK(catalog->stack_frames(0).empty());
  CHECK(catalog->frame(inner_id).name == "matmul");
  CHECK(catalog->frame(outer_id).filename == "train.py");
  CHECK(catalog->frame(outer_id).line == 7);
  CHECK(catalog->stack_frames(stack + 100).empty());
  CHECK(stacks_with_frame_text(*catalog, "OPS")[stack]);
}
