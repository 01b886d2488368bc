#include "gui_harness.h"

#include <stb_image.h>

#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include <doctest/doctest.h>

namespace snapscope::gui_test {
namespace fs = std::filesystem;

std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

fs::path make_sandbox(const std::string& name) {
  const fs::path sandbox = fs::temp_directory_path() / ("snapscope-gui-" + name);
  fs::remove_all(sandbox);
  fs::create_directories(sandbox);
  return sandbox;
}

RunResult run_app(const fs::path& sandbox, const std::string& arguments) {
  const std::string command = "XDG_CACHE_HOME=" + shell_quote((sandbox / "cache").string()) +
                              " XDG_CONFIG_HOME=" + shell_quote((sandbox / "config").string()) + " " +
                              shell_quote(SNAPSCOPE_APP) + " " + arguments;
  RunResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("cannot run " + command);
  std::array<char, 4096> buffer{};
  size_t got = 0;
  while ((got = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) result.out.append(buffer.data(), got);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

RunResult run_script(const fs::path& sandbox, const std::string& input, const std::string& script,
                     const std::string& size) {
  const fs::path script_path = sandbox / "script.txt";
  std::ofstream(script_path) << script;
  return run_app(sandbox,
                 shell_quote(input) + " --size " + size + " --script " + shell_quote(script_path.string()));
}

fs::path fixture_pickle(const fs::path& sandbox) {
  const fs::path pickle = sandbox / "fixture.pickle";
  if (fs::exists(pickle)) return pickle;
  const std::string command = shell_quote(SNAPSCOPE_GEN) + " -o " + shell_quote(pickle.string()) +
                              " --events 4000 --seed 7 > /dev/null";
  if (std::system(command.c_str()) != 0) throw std::runtime_error("snapscope-gen failed");
  return pickle;
}

uint32_t Image::pixel(int x, int y) const {
  const size_t at = (static_cast<size_t>(y) * static_cast<size_t>(width) + static_cast<size_t>(x)) * 4;
  return (uint32_t{rgba[at]} << 16) | (uint32_t{rgba[at + 1]} << 8) | uint32_t{rgba[at + 2]};
}

Image load_png(const fs::path& path) {
  Image image;
  int channels = 0;
  unsigned char* data = stbi_load(path.string().c_str(), &image.width, &image.height, &channels, 4);
  if (data == nullptr) throw std::runtime_error(path.string() + ": cannot read PNG");
  image.rgba.assign(data, data + static_cast<size_t>(image.width) * static_cast<size_t>(image.height) * 4);
  stbi_image_free(data);
  return image;
}

std::vector<nlohmann::json> json_lines(const std::string& text) {
  std::vector<nlohmann::json> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.front() == '{') lines.push_back(nlohmann::json::parse(line));
  }
  return lines;
}

std::unique_ptr<Document> open_converted(const fs::path& sandbox, const std::string& input) {
  setenv("XDG_CACHE_HOME", (sandbox / "cache").string().c_str(), 1);
  LoadProgress progress;
  return open_document(input, progress);  // reuses the app's cache directory
}

std::unique_ptr<Document> convert_with_app(const fs::path& sandbox, const std::string& input) {
  const RunResult warm =
      run_app(sandbox, shell_quote(input) + " --screenshot " + (sandbox / "warm.png").string());
  REQUIRE(warm.exit_code == 0);
  return open_converted(sandbox, input);
}

std::string drive_window(const fs::path& sandbox, const std::string& input,
                         const std::vector<std::string>& steps, bool warm) {
  const fs::path out = sandbox / "window.out";
  std::ostringstream script;
  script << "set -e\n"
         << "export XDG_CACHE_HOME=" << shell_quote((sandbox / "cache").string())
         << " XDG_CONFIG_HOME=" << shell_quote((sandbox / "config").string()) << "\n";
  // Convert into the cache first: otherwise the window can appear (and take our keys)
  // while the first conversion is still running, and the keys find no document.
  if (warm) {
    script << shell_quote(SNAPSCOPE_APP) << " " << shell_quote(input) << " --screenshot "
           << shell_quote((sandbox / "warm.png").string()) << " > /dev/null\n";
  }
  script << shell_quote(SNAPSCOPE_APP) << " " << shell_quote(input) << " --size 1400x900 > "
         << shell_quote(out.string()) << " &\n"
         << "pid=$!\n"
         // A document's window is titled "snapscope - PATH"; one that failed to open, "snapscope".
         << "W=$(timeout 60 xdotool search --sync --name '" << (warm ? "snapscope - " : "^snapscope")
         << "' | head -1)\n"
         // XTEST input into the focused window (there is no window manager); a short press is
         // enough, the app latches taps so a loaded machine does not drop them.
         << "xdotool windowfocus --sync \"$W\"\n"
         << "press() { xdotool keydown \"$1\"; sleep 0.05; xdotool keyup \"$1\"; }\n"
         // Keys read by ImGui widgets (the SQL editor) are polled once per frame: hold them longer.
         << "hold() { xdotool keydown \"$1\"; sleep 0.3; xdotool keyup \"$1\"; }\n"
         << "sleep 1\n";
  for (const std::string& step : steps) script << step << "\nsleep 0.5\n";
  // Every line is flushed as printed, so a quit that gets lost on a loaded machine only costs time.
  script << "press ctrl+q\n"
         << "timeout 20 tail --pid=$pid -f /dev/null || kill $pid\n"
         << "wait $pid || true\n";
  const fs::path driver = sandbox / "drive.sh";
  std::ofstream(driver) << script.str();
  REQUIRE(std::system(("bash " + shell_quote(driver.string())).c_str()) == 0);
  std::ifstream in(out);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace snapscope::gui_test
