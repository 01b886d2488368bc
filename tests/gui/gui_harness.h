// Helpers for GUI tests: run the real snapscope binary (under the Xvfb display the test runs
// in), capture its stdout, and read back its screenshots.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/document/document.h"

namespace snapscope::gui_test {

struct RunResult {
  int exit_code = -1;
  std::string out;  // stdout
};

// Runs `snapscope ARGS` with XDG dirs inside `sandbox`.
RunResult run_app(const std::filesystem::path& sandbox, const std::string& arguments);
// Writes a script file and runs it against `input`.
RunResult run_script(const std::filesystem::path& sandbox, const std::string& input,
                     const std::string& script, const std::string& size = "1200x800");
// A small generated snapshot (cached per test run).
std::filesystem::path fixture_pickle(const std::filesystem::path& sandbox);
std::filesystem::path make_sandbox(const std::string& name);

struct Image {
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;
  uint32_t pixel(int x, int y) const;  // 0xRRGGBB
};
Image load_png(const std::filesystem::path& path);  // throws on failure

std::string shell_quote(const std::string& text);

// The lines of `text` that are JSON objects (the app's print commands), parsed.
std::vector<nlohmann::json> json_lines(const std::string& text);
// Opens `input` through the app's cache in `sandbox` (converted by an earlier app run).
std::unique_ptr<Document> open_converted(const std::filesystem::path& sandbox, const std::string& input);
// Runs the app once on `input` (a screenshot), so it converts into the sandbox's cache, then opens
// that conversion: the test reads the same files the app it drives next will read.
std::unique_ptr<Document> convert_with_app(const std::filesystem::path& sandbox, const std::string& input);
// Starts the app on `input` in a real window, runs the xdotool `steps` (shell lines; "$W" is the
// window, `press KEY` taps a key, `hold KEY` holds it for widgets that poll keys once a frame),
// quits with Ctrl+Q and returns the app's stdout.
// With `warm` false the input is opened straight in the window (for inputs that fail to open).
std::string drive_window(const std::filesystem::path& sandbox, const std::string& input,
                         const std::vector<std::string>& steps, bool warm = true);

}  // namespace snapscope::gui_test
