// What snapscope-convert's subcommands (--report, --export) share: their usage error, number and
// --location parsing, one-line errors, and the run skeleton (help, usage errors exit 2, input
// errors exit 1 with one line naming the file).
#pragma once

#include <charconv>
#include <cstdio>
#include <new>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/analysis/source_location.h"
#include "core/snapshot/model.h"
#include "core/util/printable.h"

namespace snapscope::subcommand {

inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline int64_t parse_non_negative(std::string_view text, std::string_view option) {
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty() || value < 0) {
    throw UsageError(std::string(option) + " needs a non-negative integer, got '" + std::string(text) + "'");
  }
  return value;
}

inline int parse_device_option(std::string_view text, std::string_view option) {
  const std::optional<int> device = parse_device(text);
  if (!device) {
    throw UsageError(std::string(option) + " needs a device number or 'host', got '" + std::string(text) +
                     "'");
  }
  return *device;
}

inline LocationRule parse_location_rule(std::string_view text) {
  if (text == "user") return LocationRule::FirstUserFrame;
  if (text == "shown") return LocationRule::FirstShownFrame;
  throw UsageError("--location needs 'user' or 'shown', got '" + std::string(text) + "'");
}

// Errors are exactly one line: any embedded newline (e.g. from a library message) is flattened.
inline int fail(std::FILE* err, std::string message) {
  for (char& c : message) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  std::fputs(("snapscope-convert: " + printable(message) + "\n").c_str(), err);
  return kExitFailure;
}

// parse(args) -> Options (throws UsageError); run(options) -> exit code (throws for bad input,
// with what() already "<file>: <reason>"). `input_of(options)` names the file for out-of-memory.
template <typename Parse, typename Run, typename InputOf>
int run(std::span<const std::string_view> args, std::FILE* out, std::FILE* err, const char* usage,
        Parse parse, Run run_parsed, InputOf input_of) {
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    std::fputs(usage, out);
    return 0;
  }
  decltype(parse(args)) options;
  try {
    options = parse(args);
  } catch (const UsageError& error) {
    fail(err, error.what());
    std::fputs(usage, err);
    return kExitUsage;
  }
  try {
    return run_parsed(options);
  } catch (const std::bad_alloc&) {
    return fail(err, input_of(options) + ": out of memory");
  } catch (const std::exception& error) {
    return fail(err, error.what());
  }
}

}  // namespace snapscope::subcommand
