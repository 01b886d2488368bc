// The declarative command-line parser every front end shares (core/util/arg_parser).
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

#include "core/util/arg_parser.h"

using namespace snapscope;

namespace {

struct Parsed {
  std::string output;
  bool force = false;
  std::vector<std::string> inputs;
};

ArgTable table_of(Parsed& parsed) {
  return {
      .synopsis = "usage: tool IN... -o OUT [--force]\n",
      .positionals = {{"IN", "the files to read", 1, 2,
                       [&parsed](std::string_view path) { parsed.inputs.emplace_back(path); },
                       "no input given"}},
      .options = {{{"-o", "--output"},
                   "OUT",
                   "where to write",
                   [&parsed](std::string_view path) { parsed.output = path; }},
                  {{"--force"}, "", "replace OUT", [&parsed](std::string_view) { parsed.force = true; }}},
      .epilogue = "exit codes: 0 done\n",
  };
}

Parsed parse(std::vector<std::string_view> args) {
  Parsed parsed;
  CHECK(parse_args(table_of(parsed), args) == ArgsResult::Parsed);
  return parsed;
}

}  // namespace

TEST_CASE("arg parser: values, flags and positionals reach their handlers in order") {
  const Parsed parsed = parse({"a", "-o", "out", "--force", "b"});
  CHECK(parsed.inputs == std::vector<std::string>{"a", "b"});
  CHECK(parsed.output == "out");
  CHECK(parsed.force);
  CHECK(parse({"--output=x", "a"}).output == "x");           // long options take =value
  CHECK(parse({"a", "-o", "--force"}).output == "--force");  // a value is taken as it is
  CHECK(parse({"-o", "x", "--", "-dash"}).inputs == std::vector<std::string>{"-dash"});  // after --
  CHECK(parse({"-", "-o", "x"}).inputs == std::vector<std::string>{"-"});  // "-" is a positional
}

TEST_CASE("arg parser: usage errors") {
  Parsed parsed;
  const ArgTable table = table_of(parsed);
  using Args = std::vector<std::string_view>;
  CHECK_THROWS_WITH_AS(parse_args(table, Args{"a", "-o"}), "-o needs a value", UsageError);
  CHECK_THROWS_WITH_AS(parse_args(table, Args{"a", "--bogus"}), "unexpected argument '--bogus'", UsageError);
  CHECK_THROWS_WITH_AS(parse_args(table, Args{"a", "--force=yes"}), "unexpected argument '--force=yes'",
                       UsageError);
  CHECK_THROWS_WITH_AS(parse_args(table, Args{"a", "b", "c"}), "unexpected argument 'c'", UsageError);
  CHECK_THROWS_WITH_AS(parse_args(table, Args{"-o", "x"}), "no input given", UsageError);
  // A front end keeps its own messages.
  ArgTable own = table;
  own.unknown_option = [](std::string_view arg) { return "unknown option " + std::string(arg); };
  own.extra_positional = [](std::string_view) { return std::string("more than two input paths given"); };
  CHECK_THROWS_WITH_AS(parse_args(own, Args{"--bogus"}), "unknown option --bogus", UsageError);
  CHECK_THROWS_WITH_AS(parse_args(own, Args{"a", "b", "c"}), "more than two input paths given", UsageError);
}

TEST_CASE("arg parser: -h or --help anywhere asks for help, before any check") {
  Parsed parsed;
  const ArgTable table = table_of(parsed);
  CHECK(parse_args(table, std::vector<std::string_view>{"--help"}) == ArgsResult::HelpAsked);
  CHECK(parse_args(table, std::vector<std::string_view>{"a", "-h", "--bogus"}) == ArgsResult::HelpAsked);
}

TEST_CASE("arg parser: non-negative integers") {
  CHECK(parse_non_negative("0", "--top") == 0);
  CHECK(parse_non_negative("42", "--top") == 42);
  for (const char* bad : {"x", "", "-1", "4x", "99999999999999999999"}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(parse_non_negative(bad, "--top"),
                         ("--top needs a non-negative integer, got '" + std::string(bad) + "'").c_str(),
                         UsageError);
  }
}

TEST_CASE("arg parser: the help text is the synopsis, one aligned row per entry, and the epilogue") {
  Parsed parsed;
  CHECK(help_text(table_of(parsed)) ==
        "usage: tool IN... -o OUT [--force]\n"
        "  IN                the files to read\n"
        "  -o, --output OUT  where to write\n"
        "  --force           replace OUT\n"
        "  -h, --help        show this help\n"
        "exit codes: 0 done\n");
  const HelpRow extra[] = {{"--version", "the version"}};
  CHECK(help_text(table_of(parsed), extra).find("  --version         the version\n  -h, --help") !=
        std::string::npos);
}

TEST_CASE("arg parser: help rows wrap at 100 columns; a long left column puts its text below") {
  const std::string words(30, 'w');
  const std::string long_text = words + " " + words + " " + words + " " + words;
  const HelpRow rows[] = {{"--a", long_text}, {"--a-very-long-option NAME_OF_IT", "short"}};
  const std::string text = format_help_rows(rows);
  CHECK(text == "  --a  " + words + " " + words + " " + words + "\n" +          // 7 + 92 columns
                    "       " + words + "\n" +                                  // continued under the text
                    "  --a-very-long-option NAME_OF_IT\n" + "       short\n");  // too wide for the column
}
