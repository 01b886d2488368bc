#include "core/util/arg_parser.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <utility>

namespace snapscope {

namespace {

constexpr size_t kHelpWidth = 100;
constexpr size_t kMaxLeftColumn = 24;  // a longer left column puts its text on the next line

bool looks_like_option(std::string_view arg) { return arg.size() > 1 && arg[0] == '-'; }

const ArgOption* find_option(const ArgTable& table, std::string_view name) {
  for (const ArgOption& option : table.options) {
    if (std::ranges::find(option.names, name) != option.names.end()) return &option;
  }
  return nullptr;
}

// Positional arguments fill the table's positionals in order, each up to its max_count.
class PositionalSlots {
 public:
  explicit PositionalSlots(const ArgTable& table) : table_(table), counts_(table.positionals.size()) {}

  void add(std::string_view arg) {
    while (next_ < counts_.size() && counts_[next_] == table_.positionals[next_].max_count) ++next_;
    if (next_ == counts_.size()) throw UsageError(table_.extra_positional(arg));
    ++counts_[next_];
    table_.positionals[next_].apply(arg);
  }

  void check_complete() const {
    for (size_t i = 0; i < counts_.size(); ++i) {
      if (counts_[i] < table_.positionals[i].min_count) throw UsageError(table_.positionals[i].missing);
    }
  }

 private:
  const ArgTable& table_;
  std::vector<size_t> counts_;
  size_t next_ = 0;
};

// "--name=value" gives a long option its value in the same argument.
struct SplitOption {
  std::string_view name;
  std::optional<std::string_view> inline_value;
};

SplitOption split_option(std::string_view arg) {
  const size_t equals = arg.find('=');
  if (!arg.starts_with("--") || equals == std::string_view::npos) return {arg, std::nullopt};
  return {arg.substr(0, equals), arg.substr(equals + 1)};
}

std::string left_column(const ArgOption& option) {
  std::string left;
  for (std::string_view name : option.names) left += (left.empty() ? "" : ", ") + std::string(name);
  if (!option.value_name.empty()) left += " " + std::string(option.value_name);
  return left;
}

// `text` in lines of at most `width` characters, broken at spaces (a longer word stays whole) and
// at every '\n'; never no line at all.
std::vector<std::string_view> wrap(std::string_view text, size_t width) {
  std::vector<std::string_view> lines;
  while (true) {
    const size_t newline = text.find('\n');
    std::string_view rest = text.substr(0, newline);
    while (rest.size() > width) {
      size_t cut = rest.rfind(' ', width);
      if (cut == std::string_view::npos || cut == 0) cut = std::min(rest.find(' '), rest.size());
      lines.push_back(rest.substr(0, cut));
      rest = rest.substr(std::min(cut + 1, rest.size()));
    }
    lines.push_back(rest);
    if (newline == std::string_view::npos) return lines;
    text = text.substr(newline + 1);
  }
}

}  // namespace

ArgOption flag_option(std::string_view name, std::string_view help, bool& target) {
  return {{name}, "", help, [&target](std::string_view) { target = true; }};
}

ArgOption text_option(std::vector<std::string_view> names, std::string_view value_name, std::string_view help,
                      std::string& target) {
  return {std::move(names), value_name, help, [&target](std::string_view value) { target = value; }};
}

std::string unexpected_argument(std::string_view arg) {
  return "unexpected argument '" + std::string(arg) + "'";
}

ArgsResult parse_args(const ArgTable& table, std::span<const std::string_view> args) {
  PositionalSlots positionals(table);
  bool only_positional = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    if (only_positional || !looks_like_option(arg)) {
      positionals.add(arg);
    } else if (arg == "--") {
      only_positional = true;
    } else if (arg == "-h" || arg == "--help") {
      return ArgsResult::HelpAsked;
    } else {
      const auto [name, inline_value] = split_option(arg);
      const ArgOption* option = find_option(table, name);
      const bool flag = option != nullptr && option->value_name.empty();
      if (option == nullptr || (flag && inline_value)) throw UsageError(table.unknown_option(arg));
      if (!flag && !inline_value && i + 1 == args.size())
        throw UsageError(std::string(name) + " needs a value");
      option->apply(flag ? std::string_view() : inline_value ? *inline_value : args[++i]);
    }
  }
  positionals.check_complete();
  return ArgsResult::Parsed;
}

std::vector<HelpRow> help_rows(const ArgTable& table) {
  std::vector<HelpRow> rows;
  for (const ArgPositional& positional : table.positionals) {
    if (!positional.help.empty()) rows.push_back({std::string(positional.name), positional.help});
  }
  for (const ArgOption& option : table.options) rows.push_back({left_column(option), option.help});
  rows.push_back({"-h, --help", "show this help"});
  return rows;
}

std::string format_help_rows(std::span<const HelpRow> rows) {
  size_t left_width = 0;
  for (const HelpRow& row : rows) {
    if (row.left.size() <= kMaxLeftColumn) left_width = std::max(left_width, row.left.size());
  }
  const size_t column = 2 + left_width + 2;
  std::string text;
  for (const HelpRow& row : rows) {
    std::string line = "  " + row.left;
    if (line.size() + 2 > column) {
      text += line + "\n";
      line.clear();
    }
    for (std::string_view piece : wrap(row.text, kHelpWidth - column)) {
      line.resize(column, ' ');
      text += line + std::string(piece) + "\n";
      line.clear();
    }
  }
  return text;
}

std::string help_text(const ArgTable& table, std::span<const HelpRow> extra_rows) {
  std::vector<HelpRow> rows = help_rows(table);
  rows.insert(rows.end() - 1, extra_rows.begin(), extra_rows.end());  // -h, --help stays last
  return std::string(table.synopsis) + format_help_rows(rows) + std::string(table.epilogue);
}

int64_t parse_non_negative(std::string_view text, std::string_view option) {
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty() || value < 0) {
    throw UsageError(std::string(option) + " needs a non-negative integer, got '" + std::string(text) + "'");
  }
  return value;
}

}  // namespace snapscope
