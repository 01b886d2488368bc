// core/export on generated snapshots: every export reads back and agrees with the analysis
// layer it was built from (speedscope weights = call tree root, CSV rows = table totals, the
// timeline JSON and Chrome trace counters = the timelines' totals), a pickle and its converted
// directory export the same bytes, and a failed export leaves no file.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/analysis/call_tree.h"
#include "core/analysis/moment_table.h"
#include "core/analysis/phase_table.h"
#include "core/analysis/state_mapping.h"
#include "core/classify/classifier.h"
#include "core/convert/convert.h"
#include "core/export/export.h"
#include "core/export/export_common.h"
#include "core/export/export_source.h"
#include "core/export/svg_export.h"
#include "core/lod/lod_builder.h"
#include "core/snapshot/snapshot_reader.h"
#include "core/timeline/time_warp.h"
#include "unit/support/generated_snapshot.h"
#include "unit/support/test_store_fixture.h"

using namespace snapscope;
using snapscope::test::TempDir;
namespace fs = std::filesystem;

namespace {

fs::path generated_pickle(const TempDir& dir, bool timestamps = true) {
  gen::GenOptions options;
  options.events = 4000;
  options.seed = 7;
  options.timestamps = timestamps;
  options.annotations = timestamps;
  const fs::path path = dir / (timestamps ? "gen.pickle" : "untimed.pickle");
  test::write_generated(path, options);
  return path;
}

std::string export_text(const AnalysisSource& source, ExportRequest request, const fs::path& path) {
  export_to_file(export_input(source), request, path.string());
  return test::read_file(path);
}

ExportRequest request_for(ExportFormat format, size_t state) {
  ExportRequest request;
  request.format = format;
  request.state = state;
  return request;
}

// CSV without quoted fields holding commas is enough for the numeric columns read here.
std::vector<std::vector<std::string>> csv_rows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::string cell;
    bool quoted = false;
    for (char c : line) {
      if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        cells.push_back(cell);
        cell.clear();
      } else {
        cell += c;
      }
    }
    cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

size_t column(const std::vector<std::string>& header, const std::string& name) {
  const auto it = std::find(header.begin(), header.end(), name);
  REQUIRE_MESSAGE(it != header.end(), name);
  return static_cast<size_t>(it - header.begin());
}

uint64_t column_sum(const std::vector<std::vector<std::string>>& rows, const std::string& name) {
  const size_t index = column(rows.front(), name);
  uint64_t sum = 0;
  for (size_t r = 1; r < rows.size(); ++r) sum += std::stoull(rows[r][index]);
  return sum;
}

uint64_t speedscope_weight(const nlohmann::json& file) {
  uint64_t total = 0;
  for (const auto& weight : file["profiles"][0]["weights"]) total += weight.get<uint64_t>();
  return total;
}

}  // namespace

TEST_CASE("export: speedscope weights sum to the call tree root, stacks run from the outermost frame") {
  TempDir dir;
  const AnalysisSource source = load_analysis_source(generated_pickle(dir).string());
  const size_t state = peak_state(*source.blocks);
  const auto file = nlohmann::json::parse(
      export_text(source, request_for(ExportFormat::Speedscope, state), dir / "live.speedscope.json"));
  CHECK(file["$schema"] == "https://www.speedscope.app/file-format-schema.json");
  const auto& profile = file["profiles"][0];
  CHECK(profile["type"] == "sampled");
  CHECK(profile["unit"] == "bytes");
  CHECK(profile["samples"].size() == profile["weights"].size());
  const CallTree tree = build_call_tree(live_elements(*source.blocks, state), *source.stacks);
  CHECK(speedscope_weight(file) == tree.total_bytes());
  CHECK(tree.total_bytes() == source.blocks->total_at_state(state));
  CHECK(profile["endValue"].get<uint64_t>() == tree.total_bytes());
  // The first sample follows the tree's heaviest path from its outermost frame.
  const auto& frames = file["shared"]["frames"];
  const uint32_t top = tree.node(CallTree::kRoot).children.front();
  const FrameRef outermost = source.stacks->frame(tree.node(top).frame);
  CHECK(frames[profile["samples"][0][0].get<size_t>()]["name"] == std::string(outermost.name));
}

TEST_CASE("export: torch's \"??\" file of native frames is no file in speedscope and tree-csv") {
  TempDir dir;
  const AnalysisSource source = load_analysis_source(generated_pickle(dir).string(), {0, true});
  const size_t state = peak_state(*source.blocks);
  const auto file = nlohmann::json::parse(
      export_text(source, request_for(ExportFormat::Speedscope, state), dir / "s.json"));
  size_t native = 0;
  for (const auto& frame : file["shared"]["frames"]) {
    CHECK(frame.value("file", std::string()) != "??");
    if (frame.contains("file")) continue;
    CHECK(!frame.contains("line"));
    native += frame["name"].get<std::string>() != kUntracedLabel;
  }
  CHECK(native > 0);  // the generator writes native frames as torch does: file "??", line 0
  const auto tree = csv_rows(export_text(source, request_for(ExportFormat::TreeCsv, state), dir / "t.csv"));
  const size_t file_column = column(tree.front(), "file"), line_column = column(tree.front(), "line");
  size_t unknown = 0;
  for (size_t r = 1; r < tree.size(); ++r) {
    CHECK(tree[r][file_column] != "??");
    if (!tree[r][file_column].empty()) continue;
    unknown += 1;
    CHECK(tree[r][line_column].empty());
  }
  CHECK(unknown > 1);  // the root and native frames
}

TEST_CASE("export: speedscope-allocated weighs every traced allocation in the range") {
  TempDir dir;
  const AnalysisSource source = load_analysis_source(generated_pickle(dir).string());
  uint64_t all = 0, early = 0;
  for (uint32_t elem = 0; elem < source.blocks->element_count(); ++elem) {
    const ReplayElement& element = source.blocks->element(elem);
    if (element.origin != Origin::Traced) continue;
    all += element.size;
    if (element.alloc_event <= 999) early += element.size;
  }
  REQUIRE(early > 0);
  REQUIRE(early < all);
  ExportRequest request = request_for(ExportFormat::SpeedscopeAllocated, 0);
  CHECK(speedscope_weight(nlohmann::json::parse(export_text(source, request, dir / "all.json"))) == all);
  request.range = EventRange{0, 999};
  const auto ranged = nlohmann::json::parse(export_text(source, request, dir / "early.json"));
  CHECK(speedscope_weight(ranged) == early);
  CHECK(ranged["name"].get<std::string>().find("events 0..999") != std::string::npos);
}

TEST_CASE("export: CSV rows sum to the moment table, the call tree and the live bytes") {
  TempDir dir;
  const AnalysisSource source = load_analysis_source(generated_pickle(dir).string());
  const size_t state = peak_state(*source.blocks);
  const uint64_t live = source.blocks->total_at_state(state);
  REQUIRE(live > 0);

  const auto moment =
      csv_rows(export_text(source, request_for(ExportFormat::MomentCsv, state), dir / "m.csv"));
  CHECK(column_sum(moment, "bytes") == live);
  CHECK(moment.back()[column(moment.front(), "cumulative_bytes")] == std::to_string(live));

  const auto tree = csv_rows(export_text(source, request_for(ExportFormat::TreeCsv, state), dir / "t.csv"));
  CHECK(column_sum(tree, "self_bytes") == live);
  CHECK(tree[1][column(tree.front(), "depth")] == "0");
  CHECK(tree[1][column(tree.front(), "bytes")] == std::to_string(live));

  const auto allocations =
      csv_rows(export_text(source, request_for(ExportFormat::AllocationsCsv, state), dir / "a.csv"));
  CHECK(column_sum(allocations, "size") == live);
  CHECK(allocations.size() - 1 == live_elements(*source.blocks, state).size());
  CHECK(allocations[1][column(allocations.front(), "address")].starts_with("0x"));
}

TEST_CASE("export: categories-csv and the allocations' category column agree with the classification") {
  TempDir dir;
  const AnalysisSource source = load_analysis_source(generated_pickle(dir).string());
  const size_t state = peak_state(*source.blocks);
  const Classification classification =
      classify_allocations({*source.blocks, *source.stacks, source.annotations, nullptr});
  const std::vector<uint64_t> expected = category_bytes_at(classification, *source.blocks, state);

  const auto rows =
      csv_rows(export_text(source, request_for(ExportFormat::CategoriesCsv, state), dir / "c.csv"));
  CHECK(rows.front() ==
        std::vector<std::string>{"bytes", "cumulative_bytes", "median_size", "count", "category"});
  CHECK(column_sum(rows, "bytes") == source.blocks->total_at_state(state));
  std::map<std::string, uint64_t> by_name;
  for (size_t r = 1; r < rows.size(); ++r) by_name[rows[r][4]] = std::stoull(rows[r][0]);
  size_t named = 0;
  for (CategoryId id = 0; id < expected.size(); ++id) {
    if (expected[id] == 0) continue;
    ++named;
    CHECK(by_name[std::string(classification.names.name(id))] == expected[id]);
  }
  CHECK(named == rows.size() - 1);
  CHECK(named >= 3);  // a generated training step has parameters, activations, gradients...

  // Each live allocation's category, and the column sums to each category's bytes.
  const auto allocations =
      csv_rows(export_text(source, request_for(ExportFormat::AllocationsCsv, state), dir / "a.csv"));
  const size_t category = column(allocations.front(), "category");
  std::map<std::string, uint64_t> summed;
  for (size_t r = 1; r < allocations.size(); ++r) {
    summed[allocations[r][category]] += std::stoull(allocations[r][column(allocations.front(), "size")]);
  }
  CHECK(summed == by_name);

  // The viewer's own classification (its rules) is used when given.
  ExportRequest given = request_for(ExportFormat::CategoriesCsv, state);
  auto relabelled = std::make_shared<Classification>(classification);
  std::fill(relabelled->categories.begin(), relabelled->categories.end(), CategoryId{0});
  given.categories = relabelled;
  const auto one = csv_rows(export_text(source, given, dir / "one.csv"));
  REQUIRE(one.size() == 2);
  CHECK(one[1][4] == std::string(classification.names.name(0)));
}

TEST_CASE("export: phases-csv has the phase table's rows") {
  TempDir dir;
  const AnalysisSource source = load_analysis_source(generated_pickle(dir).string());
  const PhaseTable table =
      build_phase_table(*source.blocks, pair_annotations(source.annotations, source.device));
  REQUIRE(!table.rows.empty());
  const auto rows = csv_rows(export_text(source, request_for(ExportFormat::PhasesCsv, 0), dir / "p.csv"));
  REQUIRE(rows.size() == table.rows.size() + 1);
  uint64_t peaks = 0;
  for (const PhaseRow& row : table.rows) peaks += row.peak_bytes;
  CHECK(column_sum(rows, "peak_bytes") == peaks);
  CHECK(rows[1][column(rows.front(), "name")] == table.rows.front().name);
}

TEST_CASE("export: timeline-json lists every action with the totals after it") {
  TempDir dir;
  const AnalysisSource source = load_analysis_source(generated_pickle(dir).string());
  const auto file = nlohmann::json::parse(
      export_text(source, request_for(ExportFormat::TimelineJson, 0), dir / "timeline.json"));
  CHECK(file["format"] == "snapscope-timeline/1");
  const auto& events = file["events"];
  REQUIRE(events.size() == source.blocks->action_count() + source.segments->action_count());
  int64_t previous = -1;
  uint64_t peak = file["initial_allocated"];
  for (const auto& event : events) {
    CHECK(event["event"].get<int64_t>() >= previous);
    previous = event["event"].get<int64_t>();
    peak = std::max(peak, event["allocated"].get<uint64_t>());
  }
  CHECK(events.back()["allocated"] == source.blocks->total_at_state(source.blocks->action_count()));
  CHECK(events.back()["reserved"] == source.segments->total_at_state(source.segments->action_count()));
  CHECK(peak == source.blocks->peak_bytes());
}

TEST_CASE("export: chrome-trace counters follow the timelines, phases are slices") {
  TempDir dir;
  const AnalysisSource source = load_analysis_source(generated_pickle(dir).string());
  const auto file = nlohmann::json::parse(
      export_text(source, request_for(ExportFormat::ChromeTrace, 0), dir / "memory.trace.json"));
  std::map<std::string, uint64_t> last, max;
  std::map<std::string, int64_t> last_ts;
  size_t slices = 0;
  int64_t previous_ts = INT64_MIN;
  for (const auto& event : file["traceEvents"]) {
    if (event["ph"] == "X") ++slices;
    if (event["ph"] != "C") continue;
    CHECK(event["ts"].get<int64_t>() >= previous_ts);
    previous_ts = event["ts"].get<int64_t>();
    const uint64_t bytes = event["args"]["bytes"].get<uint64_t>();
    last[event["name"]] = bytes;
    max[event["name"]] = std::max(max[event["name"]], bytes);
    last_ts[event["name"]] = previous_ts;
  }
  // Both counters end at the trace's last timestamp, changed there or not (a line, not a dot).
  CHECK(last_ts["allocated"] == previous_ts);
  CHECK(last_ts["reserved"] == previous_ts);
  CHECK(last["allocated"] == source.blocks->total_at_state(source.blocks->action_count()));
  CHECK(last["reserved"] == source.segments->total_at_state(source.segments->action_count()));
  CHECK(max["allocated"] == source.blocks->peak_bytes());
  CHECK(max["reserved"] == source.segments->peak_bytes());
  CHECK(slices ==
        build_phase_table(*source.blocks, pair_annotations(source.annotations, source.device)).rows.size());
}

TEST_CASE("export: a trace without time_us gives no Chrome trace and leaves no file") {
  TempDir dir;
  const AnalysisSource source = load_analysis_source(generated_pickle(dir, false).string());
  const fs::path path = dir / "untimed.trace.json";
  CHECK_THROWS_WITH_AS(
      export_to_file(export_input(source), request_for(ExportFormat::ChromeTrace, 0), path.string()),
      doctest::Contains("untimed.pickle: the trace has no time_us"), InputError);
  CHECK(dir.entries() == std::vector<std::string>{"untimed.pickle"});
}

TEST_CASE("export: a pickle and its converted directory export the same files") {
  TempDir dir;
  const fs::path pickle = generated_pickle(dir);
  test::convert_into(pickle, dir / "converted");
  const AnalysisSource from_pickle = load_analysis_source(pickle.string());
  const AnalysisSource from_dir = load_analysis_source((dir / "converted").string());
  const size_t state = peak_state(*from_pickle.blocks);
  REQUIRE(state == peak_state(*from_dir.blocks));
  for (ExportFormat format : export_formats()) {
    const std::string name(export_format_name(format));
    const ExportRequest request = request_for(format, state);
    const std::string a = export_text(from_pickle, request, dir / ("p-" + name));
    const std::string b = export_text(from_dir, request, dir / ("d-" + name));
    if (format == ExportFormat::Speedscope || format == ExportFormat::SpeedscopeAllocated) {
      // Titles name the input; everything else must match.
      auto ja = nlohmann::json::parse(a), jb = nlohmann::json::parse(b);
      ja.erase("name"), jb.erase("name"), ja["profiles"][0].erase("name"), jb["profiles"][0].erase("name");
      CHECK_MESSAGE(ja == jb, name);
    } else if (format == ExportFormat::TimelineJson) {
      auto ja = nlohmann::json::parse(a), jb = nlohmann::json::parse(b);
      ja.erase("file"), jb.erase("file");
      CHECK_MESSAGE(ja == jb, name);
    } else {
      CHECK_MESSAGE(a == b, name);
    }
  }
}

TEST_CASE("export: format names round-trip and unknown names are refused") {
  for (ExportFormat format : export_formats()) {
    CHECK(parse_export_format(export_format_name(format)) == format);
  }
  CHECK(export_formats().size() == 11);
  CHECK_FALSE(parse_export_format("flamegraph").has_value());
}

namespace {

struct SvgShape {
  double x0 = 0, x1 = 0, top = 0;  // pixels; top: smallest y
  bool aggregate = false;
};

// The shapes of an svg export, checking on the way that every element is closed.
std::vector<SvgShape> svg_shapes(const std::string& text) {
  std::vector<SvgShape> shapes;
  std::istringstream in(text);
  auto attribute = [](const std::string& line, const std::string& name) {
    const size_t at = line.find(" " + name + "=\"");
    REQUIRE_MESSAGE(at != std::string::npos, line);
    return std::stod(line.substr(at + name.size() + 3));
  };
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("<rect class=") && !line.starts_with("<polygon")) continue;
    REQUIRE_MESSAGE(line.ends_with("/>"), line);
    SvgShape shape;
    shape.aggregate = line.find("class=\"a\"") != std::string::npos;
    if (line.starts_with("<rect")) {
      shape.x0 = attribute(line, "x");
      shape.x1 = shape.x0 + attribute(line, "width");
      shape.top = attribute(line, "y");
    } else {
      std::istringstream points(line.substr(line.find("points=\"") + 8));
      shape.x0 = 1e300, shape.x1 = -1e300, shape.top = 1e300;
      for (int i = 0; i < 4; ++i) {
        double x = 0, y = 0;
        char comma = 0;
        points >> x >> comma >> y;
        shape.x0 = std::min(shape.x0, x), shape.x1 = std::max(shape.x1, x),
        shape.top = std::min(shape.top, y);
      }
    }
    shapes.push_back(shape);
  }
  return shapes;
}

// Each pixel column's highest shape reaches the total the frame's column shows, within a pixel.
void check_column_tops(const std::vector<SvgShape>& shapes, const LodFrame& frame) {
  const ChartView& view = frame.view;
  REQUIRE(frame.columns.size() == size_t(view.width));
  for (int column = 0; column < view.width; ++column) {
    double top = view.height;
    for (const SvgShape& shape : shapes) {
      if (shape.x0 <= column + 0.5 && shape.x1 >= column + 0.5) top = std::min(top, shape.top);
    }
    const uint64_t highest = frame.columns[size_t(column)].total;
    CAPTURE(column);
    CHECK(std::abs((view.height - top) - double(highest) / view.bytes_per_px()) <= 1.0);
  }
}

// A 400x300 svg request with a two-colour palette.
ExportRequest small_svg_request(bool time_axis) {
  ExportRequest request = request_for(ExportFormat::Svg, 0);
  request.svg.width = 400;
  request.svg.height = 300;
  request.svg.time_axis = time_axis;
  request.svg_style.palette = {{10, 20, 30}, {40, 50, 60}};
  return request;
}

}  // namespace

TEST_CASE("export: svg is well-formed and each pixel column reaches the total the chart shows there") {
  TempDir dir;
  const AnalysisSource source = load_analysis_source(generated_pickle(dir).string());
  const ExportRequest request = small_svg_request(false);
  const std::string text = export_text(source, request, dir / "chart.svg");
  CHECK(text.starts_with(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""));
  CHECK(text.ends_with("</svg>\n"));
  CHECK(text.find(".k1{fill:#28323c}") != std::string::npos);
  const std::vector<SvgShape> shapes = svg_shapes(text);
  REQUIRE(!shapes.empty());
  // No aggregate fill: every shape is one allocation in a palette colour (issue 9).
  CHECK(std::none_of(shapes.begin(), shapes.end(), [](const SvgShape& s) { return s.aggregate; }));

  // Columns mode at this size: column c reaches the total of the state the chart's level of detail
  // shows there (the largest inside the column), snapped to pixel rows.
  const Timeline& timeline = *source.blocks;
  const ChartView view = svg_view(timeline, request.svg);
  REQUIRE(view.steps_per_px() > 1);
  check_column_tops(shapes, LodBuilder(timeline).build(view));
}

TEST_CASE("export: svg on the wall-clock axis is the chart the viewer draws in time") {
  TempDir dir;
  const AnalysisSource source = load_analysis_source(generated_pickle(dir).string());
  const ExportRequest request = small_svg_request(true);
  const std::vector<SvgShape> shapes = svg_shapes(export_text(source, request, dir / "time.svg"));
  const Timeline& timeline = *source.blocks;
  const auto warp = TimeWarp::build(timeline);
  REQUIRE(warp);
  ChartView view = svg_view(timeline, request.svg);
  view.x0 = warp->axis_at(view.x0);
  view.x1 = warp->axis_at(view.x1);
  const LodFrame in_time = LodBuilder(timeline).build(view, warp);
  check_column_tops(shapes, in_time);
  // Not the event axis's picture: some column reaches another total.
  const LodFrame by_event = LodBuilder(timeline).build(svg_view(timeline, request.svg));
  size_t differing = 0;
  for (size_t c = 0; c < in_time.columns.size(); ++c)
    differing += in_time.columns[c].total != by_event.columns[c].total;
  CHECK(differing > 0);
}

TEST_CASE("export: an svg on the wall-clock axis of a trace without time_us is refused, no file") {
  TempDir dir;
  const AnalysisSource source = load_analysis_source(generated_pickle(dir, false).string());
  const fs::path path = dir / "untimed.svg";
  CHECK_THROWS_WITH_AS(export_to_file(export_input(source), small_svg_request(true), path.string()),
                       doctest::Contains("untimed.pickle: svg: --time-axis needs timestamps (time_us)"),
                       InputError);
  CHECK(dir.entries() == std::vector<std::string>{"untimed.pickle"});
}

TEST_CASE(
    "export: modules-csv's top-level rows sum to the live bytes, or to the bytes allocated in a range") {
  TempDir dir;
  const AnalysisSource source = load_analysis_source(generated_pickle(dir).string());
  const size_t state = peak_state(*source.blocks);
  const auto rows =
      csv_rows(export_text(source, request_for(ExportFormat::ModulesCsv, state), dir / "m.csv"));
  CHECK(rows.front() == std::vector<std::string>{"depth", "bytes", "self_bytes", "count", "module", "path"});
  uint64_t top = 0, self = 0;
  size_t modules = 0;
  for (size_t r = 1; r < rows.size(); ++r) {
    if (rows[r][0] == "0") top += std::stoull(rows[r][1]);
    self += std::stoull(rows[r][2]);
    modules += rows[r][4].find(" <- ") != std::string::npos;
  }
  CHECK(top == source.blocks->total_at_state(state));
  CHECK(self == top);
  CHECK(modules > 0);  // the generator's forward goes through module.py

  ExportRequest ranged = request_for(ExportFormat::ModulesCsv, state);
  ranged.range = EventRange{0, 200};
  uint64_t allocated = 0;
  for (const LiveElement& element : allocated_in_range(*source.blocks, *ranged.range))
    allocated += element.size;
  const auto range_rows = csv_rows(export_text(source, ranged, dir / "r.csv"));
  uint64_t range_top = 0;
  for (size_t r = 1; r < range_rows.size(); ++r)
    if (range_rows[r][0] == "0") range_top += std::stoull(range_rows[r][1]);
  CHECK(range_top == allocated);
}
