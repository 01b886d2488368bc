// The one command-line parser of every front end (snapscope-convert's modes, the viewer,
// snapscope-term). A mode declares its options and positional arguments in an ArgTable; the same
// table parses the arguments and writes the --help text, so the two cannot drift apart.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace snapscope {

// A bad command line: the front end prints "<program>: what()" and its usage, and exits 2.
class UsageError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Receives an option's value (empty for a flag) or one positional argument; throws UsageError
// when the value is malformed.
using ArgHandler = std::function<void(std::string_view value)>;

struct ArgOption {
  std::vector<std::string_view> names;  // {"-o", "--output"}; "--name=value" works for long names
  std::string_view value_name;          // "OUTDIR"; empty: a flag, which takes no value
  std::string_view help;                // one paragraph; the help text wraps it
  ArgHandler apply;
};

struct ArgPositional {
  std::string_view name;  // "IN.pickle|DIR"
  std::string_view help;  // empty: named in the synopsis only
  size_t min_count = 1;
  size_t max_count = 1;
  ArgHandler apply;
  std::string missing;  // the error when fewer than min_count are given
};

// One line of a help text: the left column ("-o, --output OUTDIR") and what it does.
struct HelpRow {
  std::string left;
  std::string_view text;
};

// The commonest rows: a flag that sets `target`, an option whose value is kept as it is.
ArgOption flag_option(std::string_view name, std::string_view help, bool& target);
ArgOption text_option(std::vector<std::string_view> names, std::string_view value_name, std::string_view help,
                      std::string& target);

std::string unexpected_argument(std::string_view arg);  // "unexpected argument 'ARG'"

struct ArgTable {
  std::string_view synopsis = {};  // the "usage: ..." lines, verbatim
  std::vector<ArgPositional> positionals = {};
  std::vector<ArgOption> options = {};
  std::string_view epilogue = {};  // printed after the rows, verbatim (exit codes, keys...)
  // Each front end keeps the messages its users and scripts already know.
  std::string (*unknown_option)(std::string_view arg) = unexpected_argument;
  std::string (*extra_positional)(std::string_view arg) = unexpected_argument;
};

enum class ArgsResult : uint8_t { Parsed, HelpAsked };

// Hands `args` (argv without the program name) to the table's handlers in order and checks the
// positional counts. -h/--help anywhere stops parsing: HelpAsked. "--" makes the rest positional.
// Throws UsageError for an unknown option, a missing value, or too few or many positionals.
ArgsResult parse_args(const ArgTable& table, std::span<const std::string_view> args);

// The table's rows: positionals with help, then options, then -h/--help.
std::vector<HelpRow> help_rows(const ArgTable& table);
// Rows aligned in two columns, the text wrapped to 100 columns.
std::string format_help_rows(std::span<const HelpRow> rows);
// Synopsis, help_rows (and `extra_rows`, documented here but parsed elsewhere), epilogue.
std::string help_text(const ArgTable& table, std::span<const HelpRow> extra_rows = {});

// "--top needs a non-negative integer, got 'x'" unless `text` is one.
int64_t parse_non_negative(std::string_view text, std::string_view option);

}  // namespace snapscope
