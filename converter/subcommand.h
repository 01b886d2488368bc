// What snapscope-convert's modes (conversion, --report, --export, --diff, --ranks) share: --device
// and --location parsing, one-line errors, and the run skeleton (help, usage errors exit 2, input
// errors exit 1 with one line naming the file). Their command lines are core/util/arg_parser tables.
#pragma once

#include <cstdio>
#include <new>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/analysis/source_location.h"
#include "core/snapshot/model.h"
#include "core/util/arg_parser.h"
#include "core/util/printable.h"

namespace snapscope::subcommand {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

inline int parse_device_option(std::string_view text, std::string_view option) {
  const std::optional<int> device = parse_device(text);
  if (!device) {
    throw UsageError(std::string(option) + " needs a device number or 'host', got '" + std::string(text) +
                     "'");
  }
  return *device;
}

// --at peak|EVENT: empty for the peak.
inline std::optional<int64_t> parse_at_event(std::string_view text) {
  return text == "peak" ? std::nullopt : std::optional(parse_non_negative(text, "--at"));
}

inline LocationRule parse_location_rule(std::string_view text) {
  if (text == "user") return LocationRule::FirstUserFrame;
  if (text == "shown") return LocationRule::FirstShownFrame;
  throw UsageError("--location needs 'user' or 'shown', got '" + std::string(text) + "'");
}

// A mode's options from `args`, set by the handlers of `table_of(options)` and then checked as a
// whole by `check`, if any (throws UsageError); empty for --help.
template <typename Options>
std::optional<Options> parse_table(std::span<const std::string_view> args, ArgTable (*table_of)(Options&),
                                   void (*check)(const Options&) = nullptr) {
  Options options;
  if (parse_args(table_of(options), args) == ArgsResult::HelpAsked) return std::nullopt;
  if (check != nullptr) check(options);
  return options;
}

// The options several modes share, each with its mode's help line.
inline ArgOption device_option(int& device, std::string_view help) {
  return {{"--device"}, "N", help, [&device](std::string_view text) {
            device = parse_device_option(text, "--device");
          }};
}

inline ArgOption top_option(size_t& top, std::string_view help) {
  return {{"--top"}, "N", help, [&top](std::string_view text) {
            top = static_cast<size_t>(parse_non_negative(text, "--top"));
          }};
}

inline ArgOption location_option(LocationRule& location, std::string_view help) {
  return {{"--location"}, "user|shown", help, [&location](std::string_view text) {
            location = parse_location_rule(text);
          }};
}

inline ArgOption at_event_option(std::optional<int64_t>& at_event, std::string_view help) {
  return {
      {"--at"}, "peak|EVENT", help, [&at_event](std::string_view text) { at_event = parse_at_event(text); }};
}

// Errors are exactly one line: any embedded newline (e.g. from a library message) is flattened.
inline int fail(std::FILE* err, std::string message) {
  for (char& c : message) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  std::fputs(("snapscope-convert: " + printable(message) + "\n").c_str(), err);
  return kExitFailure;
}

// parse(args) -> std::optional<Options>, empty for --help (throws UsageError); run(options) -> exit
// code (throws for bad input, with what() already "<file>: <reason>"). `input_of(options)` names the
// file for out-of-memory.
template <typename Parse, typename Run, typename InputOf>
int run(std::span<const std::string_view> args, std::FILE* out, std::FILE* err, const std::string& usage,
        Parse parse, Run run_parsed, InputOf input_of) {
  decltype(parse(args)) parsed;
  try {
    parsed = parse(args);
  } catch (const UsageError& error) {
    fail(err, error.what());
    std::fputs(usage.c_str(), err);
    return kExitUsage;
  }
  if (!parsed) {
    std::fputs(usage.c_str(), out);
    return kExitOk;
  }
  auto& options = *parsed;
  try {
    return run_parsed(options);
  } catch (const std::bad_alloc&) {
    return fail(err, input_of(options) + ": out of memory");
  } catch (const std::exception& error) {
    return fail(err, error.what());
  }
}

}  // namespace snapscope::subcommand
