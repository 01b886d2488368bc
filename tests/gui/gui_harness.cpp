#include "gui_harness.h"

#include <stb_image.h>

#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <fstream>
#include <stdexcept>

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

}  // namespace snapscope::gui_test
