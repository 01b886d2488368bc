#include "core/view/script.h"

#include <charconv>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "core/snapshot/model.h"

namespace snapscope {
namespace {

std::string_view trim(std::string_view text) {
  const auto begin = text.find_first_not_of(" \t\r");
  if (begin == std::string_view::npos) return {};
  const auto end = text.find_last_not_of(" \t\r");
  return text.substr(begin, end - begin + 1);
}

double parse_number(std::string_view text, std::string_view what) {
  text = trim(text);
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    throw std::invalid_argument("bad " + std::string(what) + " '" + std::string(text) + "'");
  }
  return value;
}

int parse_int(std::string_view text, std::string_view what) {
  const double value = parse_number(text, what);
  if (value != std::floor(value) || std::fabs(value) > 1e9) {
    throw std::invalid_argument("bad " + std::string(what) + " '" + std::string(text) + "'");
  }
  return static_cast<int>(value);
}

// "A:B" -> {A, B}, each parsed by `parse`.
template <typename Parse>
std::pair<double, double> parse_range(std::string_view text, Parse parse) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) {
    throw std::invalid_argument("range '" + std::string(text) + "' needs the form LOW:HIGH");
  }
  const double lo = parse(text.substr(0, colon));
  const double hi = parse(text.substr(colon + 1));
  if (!(lo < hi)) throw std::invalid_argument("range '" + std::string(text) + "' is empty");
  return {lo, hi};
}

// Words separated by blanks; "double quotes" (with \" and \\ escapes) and 'single quotes'
// keep blanks inside one word.
std::vector<std::string> split_words(std::string_view line) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i >= line.size()) break;
    std::string word;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') {
      const char quote = line[i];
      if (quote != '"' && quote != '\'') {
        word += line[i++];
        continue;
      }
      const size_t opened = i++;
      while (i < line.size() && line[i] != quote) {
        if (quote == '"' && line[i] == '\\' && i + 1 < line.size()) ++i;
        word += line[i++];
      }
      if (i >= line.size())
        throw std::invalid_argument("unterminated quote at column " + std::to_string(opened + 1));
      ++i;  // the closing quote
    }
    words.push_back(std::move(word));
  }
  return words;
}

// Where a '#' comment starts: the first '#' outside quotes (npos: none).
size_t comment_start(std::string_view line) {
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote == '"' && c == '\\') {
      ++i;
    } else if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '#') {
      return i;
    }
  }
  return std::string_view::npos;
}

void expect_arguments(const std::vector<std::string_view>& words, size_t count) {
  if (words.size() != count + 1) {
    throw std::invalid_argument("'" + std::string(words[0]) + "' takes " + std::to_string(count) +
                                " argument(s)");
  }
}

bool parse_choice(std::string_view word, std::string_view off, std::string_view on) {
  if (word == off) return false;
  if (word == on) return true;
  throw std::invalid_argument("expected '" + std::string(off) + "' or '" + std::string(on) + "', got '" +
                              std::string(word) + "'");
}

}  // namespace

double parse_byte_count(std::string_view text) {
  text = trim(text);
  static constexpr std::pair<std::string_view, double> kSuffixes[] = {
      {"TiB", 0x1p40}, {"GiB", 0x1p30}, {"MiB", 0x1p20}, {"KiB", 0x1p10}, {"T", 0x1p40},
      {"G", 0x1p30},   {"M", 0x1p20},   {"K", 0x1p10},   {"B", 1}};
  for (const auto& [suffix, scale] : kSuffixes) {
    if (!text.ends_with(suffix)) continue;
    const double bytes = parse_number(text.substr(0, text.size() - suffix.size()), "size") * scale;
    // The multiplier can carry a finite number past the double range ("1e308T").
    if (!std::isfinite(bytes)) throw std::invalid_argument("bad size '" + std::string(text) + "'");
    return bytes;
  }
  return parse_number(text, "size");
}

uint64_t parse_address(std::string_view text) {
  text = trim(text);
  int base = 10;
  if (text.starts_with("0x") || text.starts_with("0X")) {
    text.remove_prefix(2);
    base = 16;
  }
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
    throw std::invalid_argument("bad address '" + std::string(text) + "'");
  }
  return value;
}

namespace {

// "eE0:eE1": event numbers, E0 <= E1 (one event is a range too).
std::pair<double, double> parse_event_range(std::string_view text) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos || !text.substr(colon + 1).starts_with('e'))
    throw std::invalid_argument("event range '" + std::string(text) + "' needs the form eFIRST:eLAST");
  const int first = parse_int(text.substr(1, colon - 1), "event");
  const int last = parse_int(text.substr(colon + 2), "event");
  if (first < 0 || last < first)
    throw std::invalid_argument("event range '" + std::string(text) + "' needs 0 <= FIRST <= LAST");
  return {first, last};
}

}  // namespace

ViewSpec parse_view_spec(std::string_view text) {
  ViewSpec spec;
  const auto comma = text.find(',');
  spec.events = text.starts_with('e');
  std::tie(spec.x0, spec.x1) = spec.events ? parse_event_range(text.substr(0, comma))
                                           : parse_range(text.substr(0, comma), [](std::string_view part) {
                                               return parse_number(part, "step");
                                             });
  if (comma != std::string_view::npos) {
    const auto [lo, hi] = parse_range(text.substr(comma + 1), parse_byte_count);
    spec.y0 = lo;
    spec.y1 = hi;
  }
  return spec;
}

WindowSize parse_window_size(std::string_view text) {
  const auto x = text.find('x');
  if (x == std::string_view::npos) throw std::invalid_argument("size '" + std::string(text) + "' needs WxH");
  WindowSize size{parse_int(text.substr(0, x), "width"), parse_int(text.substr(x + 1), "height")};
  if (size.width < 64 || size.height < 64 || size.width > 16384 || size.height > 16384) {
    throw std::invalid_argument("size '" + std::string(text) + "' out of range 64..16384");
  }
  return size;
}

namespace {

script::Cursor parse_cursor_command(const std::vector<std::string_view>& words) {
  using Move = script::Cursor::Move;
  if (words.size() == 2) {
    if (words[1] == "peak") return {Move::Peak, 0};
    if (words[1] == "home") return {Move::Home, 0};
    if (words[1] == "end") return {Move::End, 0};
    if (words[1] == "none") return {Move::None, 0};
  }
  if (words.size() == 3 && (words[1] == "state" || words[1] == "step")) {
    const int value = parse_int(words[2], words[1] == "state" ? "state" : "step");
    if (words[1] == "state" && value < 0) throw std::invalid_argument("cursor state must not be negative");
    return {words[1] == "state" ? Move::State : Move::Step, value};
  }
  throw std::invalid_argument("cursor needs peak, home, end, none, state N or step N");
}

}  // namespace

script::Tab parse_tab_command(const std::vector<std::string_view>& words) {
  expect_arguments(words, 1);
  using Name = script::Tab::Name;
  static constexpr std::pair<std::string_view, Name> kTabs[] = {{"call-tree", Name::CallTree},
                                                                {"bottom-up", Name::BottomUp},
                                                                {"moment", Name::Moment},
                                                                {"phases", Name::Phases},
                                                                {"categories", Name::Categories},
                                                                {"modules", Name::Modules},
                                                                {"findings", Name::Findings},
                                                                {"compare", Name::Compare},
                                                                {"allocator", Name::Allocator},
                                                                {"events", Name::Events},
                                                                {"sql", Name::Sql},
                                                                {"settings", Name::Settings}};
  std::string names;
  for (const auto& [word, name] : kTabs) {
    if (words[1] == word) return {name};
    names += (names.empty() ? "" : ", ") + std::string(word);
  }
  throw std::invalid_argument("tab needs one of " + names + "; got '" + std::string(words[1]) + "'");
}

ScriptCommand parse_script_line(std::string_view line) {
  // tree-search takes the rest of the line as it is typed, quotes included.
  if (line.starts_with("tree-search") && (line.size() == 11 || line[11] == ' ' || line[11] == '\t')) {
    const std::string_view text = trim(line.substr(11));
    if (text.empty()) throw std::invalid_argument("tree-search needs the text to search for");
    return script::TreeSearch{std::string(text)};
  }
  const std::vector<std::string> owned = split_words(line);
  const std::vector<std::string_view> words(owned.begin(), owned.end());
  if (words.empty()) throw std::invalid_argument("empty command");
  const std::string_view verb = words[0];
  if (verb == "view") {
    expect_arguments(words, 1);
    return script::View{parse_view_spec(words[1])};
  }
  if (verb == "fit") {
    expect_arguments(words, 0);
    return script::Fit{};
  }
  if (verb == "device") {
    expect_arguments(words, 1);
    const std::optional<int> device = parse_device(words[1]);
    if (!device)
      throw std::invalid_argument("bad device '" + std::string(words[1]) + "' (a number or 'host')");
    return script::Device{*device};
  }
  if (verb == "timeline") {
    expect_arguments(words, 1);
    if (words[1] == "pools") return script::ShowTimeline{false, true};
    if (words[1] != "blocks" && words[1] != "segments") {
      throw std::invalid_argument("expected 'blocks', 'segments' or 'pools', got '" + std::string(words[1]) +
                                  "'");
    }
    return script::ShowTimeline{words[1] == "segments", false};
  }
  if (verb == "color") {
    expect_arguments(words, 1);
    if (words[1] == "category") return script::Color{ChartColoring::Category};
    return script::Color{parse_choice(words[1], "default", "site") ? ChartColoring::Site
                                                                   : ChartColoring::Allocation};
  }
  if (verb == "rules") {
    expect_arguments(words, 1);
    return script::Rules{std::string(words[1])};
  }
  if (verb == "compare") {
    expect_arguments(words, 1);
    return script::Compare{std::string(words[1])};
  }
  if (verb == "align") {
    expect_arguments(words, 1);
    if (words[1] != "events" && words[1] != "time" && words[1] != "steps")
      throw std::invalid_argument("align needs events, time or steps, got '" + std::string(words[1]) + "'");
    return script::Align{std::string(words[1])};
  }
  if (verb == "compare-layout") {
    expect_arguments(words, 1);
    return script::CompareLayout{parse_choice(words[1], "overlay", "stacked")};
  }
  if (verb == "compare-by") {
    expect_arguments(words, 1);
    if (words[1] != "location" && words[1] != "category" && words[1] != "path")
      throw std::invalid_argument("compare-by needs location, category or path, got '" +
                                  std::string(words[1]) + "'");
    return script::CompareBy{std::string(words[1])};
  }
  if (verb == "compare-row") {
    expect_arguments(words, 1);
    return script::CompareRow{static_cast<size_t>(parse_int(words[1], "row"))};
  }
  if (verb == "print-ranks") {
    expect_arguments(words, 0);
    return script::PrintRanks{};
  }
  if (verb == "rank-open") {
    expect_arguments(words, 1);
    return script::RankOpen{static_cast<size_t>(parse_int(words[1], "rank"))};
  }
  if (verb == "rank-compare") {
    expect_arguments(words, 2);
    return script::RankCompare{static_cast<size_t>(parse_int(words[1], "rank")),
                               static_cast<size_t>(parse_int(words[2], "rank"))};
  }
  if (verb == "print-compare") {
    expect_arguments(words, 0);
    return script::PrintCompare{};
  }
  if (verb == "finding") {
    expect_arguments(words, 1);
    return script::Finding{static_cast<size_t>(parse_int(words[1], "finding"))};
  }
  if (verb == "xaxis") {
    expect_arguments(words, 1);
    return script::TimeAxis{parse_choice(words[1], "index", "time")};
  }
  if (verb == "click") {
    expect_arguments(words, 2);
    return script::Click{parse_number(words[1], "x"), parse_number(words[2], "y")};
  }
  if (verb == "chart-click") {
    expect_arguments(words, 2);
    return script::ChartClick{parse_number(words[1], "x"), parse_number(words[2], "y")};
  }
  if (verb == "hover") {
    expect_arguments(words, 2);
    return script::Hover{parse_number(words[1], "x"), parse_number(words[2], "y")};
  }
  if (verb == "phase") {
    expect_arguments(words, 1);
    const int index = parse_int(words[1], "phase index");
    if (index < 0) throw std::invalid_argument("phase needs a non-negative index");
    return script::Phase{static_cast<size_t>(index)};
  }
  if (verb == "zoom-selection") {
    expect_arguments(words, 0);
    return script::ZoomSelection{};
  }
  if (verb == "yfit") {
    expect_arguments(words, 1);
    if (words[1] == "on") return script::YFit{script::YFit::Mode::On};
    if (words[1] == "off") return script::YFit{script::YFit::Mode::Off};
    if (words[1] == "floor") return script::YFit{script::YFit::Mode::Floor};
    throw std::invalid_argument("yfit needs on, off or floor, not '" + std::string(words[1]) + "'");
  }
  if (verb == "select") {
    expect_arguments(words, 1);
    return script::Select{parse_address(words[1])};
  }
  if (verb == "wait") {
    expect_arguments(words, 1);
    const int milliseconds = parse_int(words[1], "milliseconds");
    if (milliseconds < 0) throw std::invalid_argument("wait needs a non-negative time");
    return script::Wait{milliseconds};
  }
  if (verb == "screenshot") {
    expect_arguments(words, 1);
    return script::Screenshot{std::string(words[1])};
  }
  if (verb == "export") {
    expect_arguments(words, 2);
    return script::Export{std::string(words[1]), std::string(words[2])};
  }
  if (verb == "print-selection") {
    expect_arguments(words, 0);
    return script::PrintSelection{};
  }
  if (verb == "print-view") {
    expect_arguments(words, 0);
    return script::PrintView{};
  }
  if (verb == "cursor") return parse_cursor_command(words);
  if (verb == "search") {
    expect_arguments(words, 1);
    return script::Search{std::string(words[1])};
  }
  if (verb == "search-next" || verb == "search-previous") {
    expect_arguments(words, 0);
    return script::SearchStep{verb == "search-next"};
  }
  if (verb == "print-cursor") {
    expect_arguments(words, 0);
    return script::PrintCursor{};
  }
  if (verb == "print-modules") {
    expect_arguments(words, 0);
    return script::PrintModules{};
  }
  if (verb == "tab") return parse_tab_command(words);
  throw std::invalid_argument("unknown command '" + std::string(verb) + "'");
}

std::vector<ScriptCommand> parse_script(std::string_view text, std::string_view name) {
  std::vector<ScriptCommand> commands;
  size_t line_number = 0;
  while (!text.empty()) {
    const auto newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    text = newline == std::string_view::npos ? std::string_view{} : text.substr(newline + 1);
    ++line_number;
    line = trim(line.substr(0, comment_start(line)));
    if (line.empty()) continue;
    try {
      commands.push_back(parse_script_line(line));
    } catch (const std::invalid_argument& error) {
      throw std::invalid_argument(std::string(name) + ":" + std::to_string(line_number) + ": " +
                                  error.what());
    }
  }
  return commands;
}

}  // namespace snapscope
