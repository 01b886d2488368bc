// snapscope-term: explore a snapshot in a terminal (over SSH on the GPU node that wrote it).
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "converter/diff_command.h"
#include "converter/report_command.h"
#include "core/store/version/version.h"
#include "term/term_app.h"
#include "term/terminal.h"

namespace {

// Not a terminal (a pipe, a file, a CI log): the report the converter prints, and exit.
int print_report(const snapscope::term::TermOptions& options) {
  std::vector<std::string_view> args;
  if (options.compare_path.empty()) {
    args = {options.path};
  } else {
    args = {options.path, options.compare_path};
  }
  if (options.device >= 0) {
    static std::string device;
    device = std::to_string(options.device);
    args.push_back("--device");
    args.push_back(device);
  }
  return options.compare_path.empty() ? snapscope::run_report(args, stdout, stderr)
                                      : snapscope::run_diff(args, stdout, stderr);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace snapscope::term;
  if (snapscope::asks_for_version(argc, argv))
    return std::fputs(snapscope::version_text("snapscope-term").c_str(), stdout), 0;
  TermOptions options;
  try {
    options = parse_term_options(std::vector<std::string_view>(argv + 1, argv + argc));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "snapscope-term: %s\n%s", error.what(), term_usage().c_str());
    return 2;
  }
  if (options.help) {
    std::fputs(term_usage().c_str(), stdout);
    return 0;
  }
  if (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)) return print_report(options);
  std::string failure;
  int code = 1;
  KeyTimings bench;
  try {
    Terminal terminal;
    code = run_terminal(terminal, options, &bench);
  } catch (const std::exception& error) {
    failure = error.what();  // reported once the terminal is restored
  }
  if (!failure.empty()) {
    std::fprintf(stderr, "snapscope-term: %s\n", failure.c_str());
    return 1;
  }
  // After the terminal is restored, on stderr: standard output must be the terminal for --bench.
  if (options.bench) std::fputs(bench_summary(bench).c_str(), stderr);
  return code;
}
