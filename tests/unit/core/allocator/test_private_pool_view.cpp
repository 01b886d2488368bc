// The "Allocated Memory (incl. Private Pools)" view (private_pool_layout.h) on a hand-made JSON
// snapshot, against the layout memory_viz's process_alloc_data(include_private_inactive=true)
// gives for it. The expected numbers were not worked out by hand: they are the output, on this
// very snapshot, of a line-by-line JavaScript transcription of that function (PyTorch's
// torch/utils/viz/process_alloc_data.js; its animation and decimation left out) run with node,
// outside the repository. The upstream file itself could not be run here.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <vector>

#include "core/allocator/private_pool_input.h"
#include "core/convert/convert.h"
#include "core/export/chart_svg_style.h"
#include "core/export/export.h"
#include "core/export/export_source.h"
#include "core/gen/gen_options.h"
#include "core/gen/snapshot_pickler.h"
#include "core/lod/lod_builder.h"
#include "core/lod/lod_pick.h"
#include "core/lod/pool_stack_cursor.h"
#include "core/session/session.h"
#include "core/store/elements_db/elements_db_reader.h"
#include "core/util/chart_palette.h"
#include "core/view/allocation_details.h"
#include "unit/support/generated_snapshot.h"
#include "unit/support/private_pools_fixture.h"
#include "unit/support/test_lod_traces.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;
using namespace snapscope::test;
using nlohmann::json;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;

struct ConvertedPools {
  TempDir dir;
  std::unique_ptr<Session> session;
  ConvertedPools() {
    write_file(dir / "pools.json", test::private_pools_snapshot().dump());
    test::convert_into(dir / "pools.json", dir / "pools");
    session = Session::open((dir / "pools").string());
    session->wait_private_pools();
  }
  const Timeline& blocks() const { return session->device()->blocks; }
  const PrivatePoolLayout& layout() const { return *session->private_pools()->layout; }
};

// What memory_viz shows over the trace, each run of equal values once.
std::vector<uint64_t> shown_runs(const PrivatePoolLayout& layout) {
  std::vector<uint64_t> runs;
  const Timeline& timeline = layout.timeline();
  for (size_t action = 0; action < timeline.action_count(); ++action) {
    const uint64_t shown = std::max(layout.total_at_state(action), layout.total_at_state(action + 1));
    if (runs.empty() || runs.back() != shown) runs.push_back(shown);
  }
  return runs;
}

}  // namespace

TEST_CASE("private pools view: the layout memory_viz draws for a snapshot with pools") {
  ConvertedPools converted;
  const PrivatePoolLayout& layout = converted.layout();
  const Timeline& blocks = converted.blocks();

  // Pools by key, in first-seen order; envelopes where memory_viz ends them.
  REQUIRE(layout.pool_count() == 3);
  std::map<std::pair<std::array<int64_t, 2>, uint64_t>, uint32_t> pool_of_key;
  for (uint32_t p = 0; p < layout.pool_count(); ++p)
    pool_of_key[{layout.pool(p).pool, layout.pool(p).stream}] = p;
  const uint32_t graph = pool_of_key.at({{1, 5}, 7}), graph_s9 = pool_of_key.at({{1, 5}, 9});
  const uint32_t expandable = pool_of_key.at({{2, 9}, 7});
  const size_t end = blocks.action_count();
  CHECK(layout.envelope_bytes(graph, end) == 4980736);
  CHECK(layout.envelope_bytes(expandable, end) == 4194304);
  CHECK(layout.envelope_bytes(graph_s9, end) == 262144);
  CHECK(layout.envelope_state(graph) == 0);  // its blocks were live before the trace

  // memory_viz's max_at_time, each run of equal values once, and its peak.
  CHECK(shown_runs(layout) == std::vector<uint64_t>{5242880, 6029312, 8126464, 10223616, 12320768, 10223616,
                                                    10485760, 11534336, 11010048, 11796480});
  CHECK(layout.peak_bytes() == 12320768);
  CHECK(layout.peak_bytes() > blocks.peak_bytes());

  // Every allocation where memory_viz first draws it: (address, size, offset), in its order.
  struct Placed {
    uint64_t addr, size, offset;
  };
  const std::vector<Placed> expected = {
      {0x2000000, 524288, 0},        {0x2300000, 262144, 524288},    {0x1000000, 1048576, 4194304},
      {0x2100000, 1048576, 786432},  {0x2200000, 3145728, 1835008},  {0x1100000, 2097152, 6029312},
      {0x2200000, 1048576, 1835008}, {0x4000000, 1048576, 8126464},  {0x4200000, 1572864, 9175040},
      {0x2380000, 262144, 10223616}, {0x4500000, 1048576, 10485760}, {0x1100000, 524288, 10485760},
      {0x1200000, 786432, 11010048}};
  REQUIRE(blocks.element_count() == expected.size());
  for (const Placed& placed : expected) {
    CAPTURE(placed.addr);
    CAPTURE(placed.size);
    uint32_t elem = kNoIndex;
    for (uint32_t e = 0; e < blocks.element_count(); ++e) {
      if (blocks.element(e).addr == placed.addr && blocks.element(e).size == placed.size) elem = e;
    }
    REQUIRE(elem != kNoIndex);
    const size_t state = blocks.alloc_state(elem);
    const auto items = layout.layout_at(state);
    const auto found =
        std::find_if(items.begin(), items.end(), [&](const PoolViewItem& i) { return i.elem == elem; });
    REQUIRE(found != items.end());
    CHECK(found->offset == placed.offset);
  }
  // G (0x4200000) lies in the expandable pool's end-of-trace segment, L (0x4500000) in none.
  for (uint32_t e = 0; e < blocks.element_count(); ++e) {
    if (blocks.element(e).addr == 0x4200000) CHECK(layout.pool_of(e) == expandable);
    if (blocks.element(e).addr == 0x4500000) CHECK(layout.pool_of(e) == kNoIndex);
    if (blocks.element(e).addr == 0x2380000) CHECK(layout.pool_of(e) == graph_s9);
  }
}

TEST_CASE("private pools view: a pool's inactive memory sits above its blocks, and picking finds both") {
  ConvertedPools converted;
  const PrivatePoolLayout& layout = converted.layout();
  const size_t end = converted.blocks().action_count();
  const std::vector<PoolViewItem> items = layout.layout_at(end);
  uint64_t offset = 0;
  for (const PoolViewItem& item : items) {
    CHECK(item.offset == offset);  // contiguous, bottom to top
    offset += item.size;
  }
  CHECK(offset == layout.total_at_state(end));
  // The first envelope: the block live before the trace and B, then 4.75 MiB - 1.5 MiB inactive.
  REQUIRE(items.size() >= 3);
  CHECK(items[0].kind == PoolViewItem::Kind::Allocation);
  CHECK(items[0].size == 512 * KiB);
  CHECK(items[1].size == 1 * MiB);
  CHECK(items[2].kind == PoolViewItem::Kind::PoolInactive);
  CHECK(items[2].size == 4980736 - 1536 * KiB);
  const auto inactive = layout.item_at(end, items[2].offset + 7);
  REQUIRE(inactive);
  CHECK(inactive->kind == PoolViewItem::Kind::PoolInactive);
  CHECK_FALSE(layout.item_at(end, offset));

  // The inspector names a block's pool by its segment when its event names none.
  const ElementsDbReader reader((converted.dir / "pools" / "elements.db").string());
  const Timeline& blocks = converted.blocks();
  for (uint32_t elem = 0; elem < blocks.element_count(); ++elem) {
    const AllocationDetails details = read_allocation_details(reader, 0, TimelineKind::Blocks, elem);
    CAPTURE(details.address);
    CHECK(details.pool_from_segment == details.pool_id.has_value());
    if (details.address == 0x2100000) CHECK(*details.pool_id == std::array<int64_t, 2>{1, 5});
    if (details.address == 0x4500000 || details.address == 0x1000000) CHECK_FALSE(details.pool_id);
    CHECK(details.pool_id.has_value() == (layout.pool_of(elem) != kNoIndex));
  }
}

TEST_CASE("private pools view: the session switches it on for the blocks timeline and fits the view to it") {
  ConvertedPools converted;
  Session& session = *converted.session;
  session.select_kind(TimelineKind::Segments);
  CHECK(session.pools_shown() == nullptr);
  session.show_private_pools(true);
  CHECK(session.settings.kind == TimelineKind::Blocks);
  REQUIRE(session.pools_shown() != nullptr);
  const double top = session.view.bounds().y1;
  CHECK(top == doctest::Approx(static_cast<double>(converted.layout().peak_bytes()) * 1.05));
  session.cursor_to_peak();
  CHECK(session.cursor.state() == converted.layout().peak_state());
  session.show_private_pools(false);
  CHECK(session.pools_shown() == nullptr);
  CHECK(session.view.bounds().y1 ==
        doctest::Approx(static_cast<double>(converted.blocks().peak_bytes()) * 1.05));
}

TEST_CASE("private pools view: a device without private pools has none, and bad inputs are refused") {
  TempDir dir;
  write_file(dir / "plain.pickle", pickle_bytes(standard_fixture()));
  test::convert_into(dir / "plain.pickle", dir / "plain");
  auto session = Session::open((dir / "plain").string());
  session->wait_private_pools();
  CHECK(session->private_pools() == nullptr);
  CHECK(session->private_pools_error().empty());
  session->settings.private_pools = true;
  CHECK(session->pools_shown() == nullptr);

  const Timeline timeline(random_trace({.actions = 50, .seed = 3}));
  PrivatePoolInput short_input;
  CHECK_THROWS_WITH(PrivatePoolLayout(timeline, short_input), doctest::Contains("element pools for"));
  PrivatePoolInput bad_pool;
  bad_pool.element_pool.assign(timeline.element_count(), 4);
  CHECK_THROWS_WITH(PrivatePoolLayout(timeline, bad_pool), doctest::Contains("pool index out of range"));
}

TEST_CASE("private pools view: a generated FSDP-like MemPool's envelope ends at its segments' bytes") {
  TempDir dir;
  gen::GenOptions options;
  options.events = 8000;
  options.seed = 5;
  options.mem_pool = true;
  test::write_generated(dir / "pool.pickle", options);
  test::convert_into(dir / "pool.pickle", dir / "pool");
  auto session = Session::open((dir / "pool").string());
  session->wait_private_pools();
  const SessionPools* pools = session->private_pools();
  REQUIRE(pools != nullptr);
  const PrivatePoolLayout& layout = *pools->layout;
  REQUIRE(layout.pool_count() == 1);
  CHECK(layout.pool(0).pool == gen::kMemPoolId);
  // The pool's segments are all made in the trace and never freed: its envelope grows to exactly
  // their bytes, and its reserved memory never drops below what its blocks hold.
  uint64_t pool_bytes = 0;
  for (const SegmentRow& segment :
       ElementsDbReader((dir / "pool" / "elements.db").string()).final_segments(0)) {
    if (segment.pool_id == gen::kMemPoolId) pool_bytes += segment.total_size;
  }
  const Timeline& blocks = session->device()->blocks;
  CHECK(layout.envelope_bytes(0, blocks.action_count()) == pool_bytes);
  CHECK(layout.peak_bytes() >= blocks.peak_bytes());
  // Between layers the pool holds no block: its memory is inactive then.
  size_t inactive_states = 0;
  for (size_t state = 0; state <= blocks.action_count(); state += 97) {
    for (const PoolViewItem& item : layout.layout_at(state)) {
      inactive_states += item.kind == PoolViewItem::Kind::PoolInactive ? 1 : 0;
    }
  }
  CHECK(inactive_states > 0);
}

namespace {

// A random trace with its allocations spread over three pools (and the default pool), and
// reserved memory that grows and shrinks between actions.
PrivatePoolInput random_pools(const Timeline& timeline, uint64_t seed) {
  std::mt19937_64 rng(seed);
  PrivatePoolInput input;
  input.pools = {{{1, 1}, 0}, {{1, 2}, 0}, {{3, 1}, 4}};
  input.snapshot_reserved = {64 * MiB, 0, 3 * MiB};
  for (size_t elem = 0; elem < timeline.element_count(); ++elem) {
    const uint64_t draw = rng() % 5;
    input.element_pool.push_back(draw < 3 ? static_cast<uint32_t>(draw) : kNoIndex);
  }
  for (size_t position = 0; position <= timeline.action_count(); position += 1 + rng() % 40) {
    const auto delta = static_cast<int64_t>(rng() % (8 * MiB)) - static_cast<int64_t>(2 * MiB);
    input.segment_changes.push_back({position, static_cast<uint32_t>(rng() % 3), delta});
  }
  return input;
}

}  // namespace

TEST_CASE("private pools view: totals, layouts, the cursor and the chart agree on random traces") {
  for (uint64_t seed : {1u, 2u, 3u}) {
    CAPTURE(seed);
    const Timeline timeline(random_trace({.initial = 20, .actions = 1500, .seed = seed}));
    auto layout = std::make_shared<const PrivatePoolLayout>(timeline, random_pools(timeline, seed));
    const StateDeltaIndex deltas(timeline);
    PoolStackCursor cursor(*layout, deltas);
    std::mt19937_64 rng(seed);
    for (int probe = 0; probe < 60; ++probe) {
      const size_t state = rng() % (timeline.action_count() + 1);
      const std::vector<PoolViewItem> items = layout->layout_at(state);
      uint64_t top = 0;
      for (const PoolViewItem& item : items) top = item.offset + item.size;
      REQUIRE(top == layout->total_at_state(state));
      // Envelopes never shrink.
      for (uint32_t p = 0; p < layout->pool_count(); ++p) {
        if (state > 0) CHECK(layout->envelope_bytes(p, state) >= layout->envelope_bytes(p, state - 1));
      }
      cursor.move_to(state);
      for (const PoolViewItem& item : items) {
        const auto hit = cursor.item_at(item.offset + item.size / 2);
        REQUIRE(hit);
        CHECK(hit->item.kind == item.kind);
        CHECK(hit->item.elem == item.elem);
        CHECK(hit->item.pool == item.pool);
        CHECK(hit->item.offset == item.offset);
        CHECK(hit->item.size == item.size);
      }
      CHECK_FALSE(cursor.item_at(layout->total_at_state(state)));
    }
    // The chart: each column shows a state, and the frame's picks are that state's items.
    LodBuilder builder(timeline);
    builder.set_private_pools(layout);
    const ChartView view{0,   static_cast<double>(timeline.timesteps()),
                         0,   static_cast<double>(layout->peak_bytes()) * 1.05,
                         300, 200};
    const LodFrame frame = builder.build(view);
    CHECK(frame.mode == LodMode::Columns);
    CHECK(frame.pools == layout);
    bool saw_inactive = false;
    for (int px = 0; px < view.width; px += 7) {
      const ColumnSample& column = frame.columns[static_cast<size_t>(px)];
      REQUIRE(column.state != kNoIndex);
      CHECK(column.total == layout->total_at_state(column.state));
      for (int py = 0; py < view.height; py += 5) {
        const PickResult pick = pick_at(timeline, frame, px + 0.5, py + 0.5);
        const double byte = view.y_at_row_centre(view.height - 1 - py);
        const auto item = layout->item_at(column.state, static_cast<uint64_t>(byte));
        CHECK((pick.kind == PickKind::None) == !item);
        if (pick.kind == PickKind::PoolInactive) saw_inactive = true;
      }
    }
    CHECK(saw_inactive);
    // The column's peak state is the highest of the view's totals over its steps.
    const uint64_t highest = *std::max_element(layout->state_totals().begin(), layout->state_totals().end());
    uint64_t drawn_highest = 0;
    for (const ColumnSample& column : frame.columns) drawn_highest = std::max(drawn_highest, column.total);
    CHECK(drawn_highest == highest);
    // Every instance is an allocation's colour or the pools' gray.
    for (const ChartInstance& shape : frame.instances) {
      if (shape.elem == kNoIndex) CHECK(shape.color_key == kPoolInactiveKey);
    }
  }
}

TEST_CASE(
    "private pools view: a snapshot in memory and its elements.db give the same input, and svg draws it") {
  TempDir dir;
  write_file(dir / "pools.json", test::private_pools_snapshot().dump());
  test::convert_into(dir / "pools.json", dir / "pools");
  const AnalysisSource from_json = load_analysis_source((dir / "pools.json").string());
  const AnalysisSource from_dir = load_analysis_source((dir / "pools").string());
  const PrivatePoolInput a = private_pool_input_from_snapshot(*from_json.snapshot, *from_json.blocks);
  const PrivatePoolInput b = private_pool_input_from_db(from_dir.elements_db, *from_dir.blocks);
  CHECK(a.pools == b.pools);
  CHECK(a.element_pool == b.element_pool);
  CHECK(a.snapshot_reserved == b.snapshot_reserved);
  REQUIRE(a.segment_changes.size() == b.segment_changes.size());
  CHECK(a.segment_changes.size() == 4);  // every segment event is in the expandable pool's segment
  for (size_t i = 0; i < a.segment_changes.size(); ++i) {
    CHECK(a.segment_changes[i].position == b.segment_changes[i].position);
    CHECK(a.segment_changes[i].pool == b.segment_changes[i].pool);
    CHECK(a.segment_changes[i].delta == b.segment_changes[i].delta);
  }

  ExportRequest request;
  request.format = ExportFormat::Svg;
  request.svg_style = chart_svg_style();
  request.svg.width = 400;
  request.svg.height = 200;
  request.svg.pools = private_pools_of(from_dir);
  REQUIRE(request.svg.pools);
  export_to_file(export_input(from_dir), request, (dir / "pools.svg").string());
  const std::string svg = read_file(dir / "pools.svg");
  CHECK(svg.find(".p{fill:#6b6b70}") != std::string::npos);
  CHECK(svg.find("<rect class=\"p\"") != std::string::npos);
  request.svg.pools = nullptr;
  export_to_file(export_input(from_dir), request, (dir / "active.svg").string());
  CHECK(read_file(dir / "active.svg").find("<rect class=\"p\"") == std::string::npos);
  // Only the blocks timeline has this view.
  request.svg.pools = private_pools_of(from_dir);
  request.svg.kind = TimelineKind::Segments;
  CHECK_THROWS_WITH(export_to_file(export_input(from_dir), request, (dir / "segments.svg").string()),
                    doctest::Contains("the private pools view is of the Active Memory Timeline"));
  CHECK_FALSE(std::filesystem::exists(dir / "segments.svg"));
}
