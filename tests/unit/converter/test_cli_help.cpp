// Every snapscope-convert mode's --help lists every option its command-line table declares (the
// help is written from the table; this keeps it so).
#include <doctest/doctest.h>

#include <string>

#include "converter/cli_args.h"
#include "converter/diff_command.h"
#include "converter/export_command.h"
#include "converter/ranks_command.h"
#include "converter/report_command.h"
#include "core/util/arg_parser.h"

using namespace snapscope;

namespace {

void check_lists_every_option(const ArgTable& table, const std::string& usage) {
  CHECK(usage.starts_with(table.synopsis));
  for (const ArgOption& option : table.options) {
    std::string names;  // the row's left column: "-o, --output"
    for (std::string_view name : option.names) names += (names.empty() ? "" : ", ") + std::string(name);
    CAPTURE(names);
    CHECK(usage.find("\n  " + names + " ") != std::string::npos);
    CHECK(usage.find(option.help.substr(0, 20)) != std::string::npos);
  }
  for (const ArgPositional& positional : table.positionals) {
    CAPTURE(positional.name);
    CHECK(usage.find(positional.name) != std::string::npos);
  }
  CHECK(usage.find("  -h, --help") != std::string::npos);
}

}  // namespace

TEST_CASE("cli help: the conversion's help lists its options and the other modes") {
  check_lists_every_option(convert_arg_table(), convert_usage());
  for (const char* mode : {"--report", "--export", "--diff", "--ranks", "--bench-queries"}) {
    CAPTURE(mode);
    CHECK(convert_usage().find("\n  " + std::string(mode)) != std::string::npos);
  }
}

TEST_CASE("cli help: --report, --export, --diff and --ranks list every option of their tables") {
  check_lists_every_option(report_arg_table(), report_usage());
  check_lists_every_option(export_arg_table(), export_usage());
  check_lists_every_option(diff_arg_table(), diff_usage());
  check_lists_every_option(ranks_arg_table(), ranks_usage());
  CHECK(diff_usage().ends_with("3 the peak grew past --fail-if-peak-grows\n"));
}
