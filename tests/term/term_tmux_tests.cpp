// snapscope-term through a real terminal: tmux runs it (new-session -d -x W -y H), send-keys
// types, capture-pane reads what a user would see. Expected values come from snapscope-convert
// (--report, --diff --summary json) and, when it is built, the viewer's own search.
#include <doctest/doctest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/store/allocations_json/allocations_json.h"
#include "core/store/elements_db/elements_db.h"
#include "core/store/version/version.h"

namespace {

namespace fs = std::filesystem;

std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string run_output(const std::string& command) {
  std::string out;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[4096];
    for (size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
    pclose(pipe);
  }
  return out;
}

fs::path sandbox(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("snapscope-term-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

fs::path generated(const fs::path& dir, const std::string& name, const std::string& options) {
  const fs::path pickle = dir / name;
  const std::string command =
      shell_quote(SNAPSCOPE_GEN) + " -o " + shell_quote(pickle.string()) + " " + options + " > /dev/null";
  REQUIRE(std::system(command.c_str()) == 0);
  return pickle;
}

// One snapscope-term in its own tmux server (its own socket: nothing else is touched), with
// the viewer's cache inside the sandbox. The shell line around it reports the exit status.
class TermSession {
 public:
  TermSession(const fs::path& dir, const std::string& arguments, int cols = 120, int rows = 40,
              const std::string& environment = "")
      : socket_("snapscope-" + std::to_string(getpid()) + "-" + std::to_string(counter_++)) {
    const std::string inner = "env XDG_CACHE_HOME=" + shell_quote((dir / "cache").string()) + " " +
                              environment + " " + shell_quote(SNAPSCOPE_TERM) + " " + arguments +
                              "; echo EXITED $?; sleep 60";
    run("new-session -d -s t -x " + std::to_string(cols) + " -y " + std::to_string(rows) + " " +
        shell_quote(inner));
  }
  ~TermSession() { run("kill-server"); }
  TermSession(const TermSession&) = delete;
  TermSession& operator=(const TermSession&) = delete;

  std::string screen() const { return run_output(command("capture-pane -p -t t")); }
  void keys(const std::string& keys) const { run("send-keys -t t " + keys); }
  void resize(int cols, int rows) const {
    run("resize-window -t t -x " + std::to_string(cols) + " -y " + std::to_string(rows));
  }
  // Waits (up to a minute) until the screen satisfies `ready`; returns the screen then.
  std::string wait_for(const std::function<bool(const std::string&)>& ready) const {
    std::string shown;
    for (int i = 0; i < 600; ++i) {
      shown = screen();
      if (ready(shown)) return shown;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    FAIL_CHECK("the screen never got there; it shows:\n" << shown);
    return shown;
  }
  std::string wait_for_text(const std::string& text) const {
    return wait_for([&](const std::string& shown) { return shown.find(text) != std::string::npos; });
  }

 private:
  std::string command(const std::string& arguments) const {
    return shell_quote(SNAPSCOPE_TMUX) + " -L " + socket_ + " " + arguments + " 2>/dev/null";
  }
  void run(const std::string& arguments) const { (void)std::system(command(arguments).c_str()); }

  std::string socket_;
  static inline int counter_ = 0;
};

std::string line_with(const std::string& screen, const std::string& text) {
  std::istringstream lines(screen);
  for (std::string line; std::getline(lines, line);) {
    if (line.find(text) != std::string::npos) return line;
  }
  return {};
}

std::string report(const fs::path& input, const std::string& options = "") {
  return run_output(shell_quote(SNAPSCOPE_CONVERT) + " --report " + shell_quote(input.string()) + " " +
                    options);
}

// "peak:          51.04 GiB (54,802,667,524 B) at event #19335" -> "54,802,667,524 B"
std::string exact_peak(const std::string& text) {
  const std::string line = line_with(text, "peak:");
  const size_t open = line.find('('), close = line.find(')');
  REQUIRE(open != std::string::npos);
  return line.substr(open + 1, close - open - 1);
}

// The moment table's first row's location, as --report prints it (under the "Location" header).
std::string first_location(const std::string& text) {
  std::istringstream lines(text);
  std::string header, row;
  while (std::getline(lines, header) && header.find("Location") == std::string::npos) {
  }
  REQUIRE(std::getline(lines, row));
  return row.substr(header.find("Location"));
}

void check_opens_at_peak(const fs::path& dir, const fs::path& input) {
  const std::string expected = report(input);
  const std::string peak = exact_peak(expected);
  const std::string location = first_location(expected);
  TermSession term(dir, shell_quote(input.string()));
  const std::string screen = term.wait_for([&](const std::string& shown) {
    return shown.find("[peak]") != std::string::npos && shown.find(location) != std::string::npos;
  });
  const std::string status = line_with(screen, "[peak]");
  CHECK(status.find("allocated ") != std::string::npos);
  CHECK(status.find("(" + peak + ")") != std::string::npos);
  // The moment pane is the one shown first; its first row is --report's.
  const std::string header = line_with(screen, "Cumulative");
  REQUIRE(!header.empty());
  std::istringstream lines(screen.substr(screen.find(header) + header.size() + 1));
  std::string first_row;
  std::getline(lines, first_row);
  CHECK(first_row.find(location) != std::string::npos);
}

}  // namespace

TEST_CASE(
    "term: opens at the peak: the status line names the peak bytes exactly, the first row is --report's") {
  const fs::path dir = sandbox("peak");
  check_opens_at_peak(dir, generated(dir, "fixture.pickle", "--events 4000 --seed 7"));
}

TEST_CASE("term: keys move the cursor, switch panes and walk the call tree; q restores the terminal") {
  const fs::path dir = sandbox("keys");
  const fs::path input = generated(dir, "fixture.pickle", "--events 4000 --seed 7");
  TermSession term(dir, shell_quote(input.string()));
  term.wait_for_text("[peak]");
  term.keys("Home");
  const std::string start = term.wait_for_text("before the first event");
  CHECK(line_with(start, "allocated ").find("[peak]") == std::string::npos);
  term.keys("p");
  term.wait_for_text("[peak]");
  term.keys("Tab 1");
  const std::string tree = term.wait_for_text("all live memory");
  CHECK(tree.find("% live") != std::string::npos);
  term.keys("Down c");  // collapse all: the root alone is open
  term.keys("?");
  const std::string help = term.wait_for_text("Panes: 1 call tree");
  CHECK(help.find("/ search frames") != std::string::npos);
  term.keys("Escape");
  term.keys("q");
  const std::string after = term.wait_for_text("EXITED 0");
  // The alternate screen is gone: nothing of the program is left on the terminal.
  CHECK(after.find("? help") == std::string::npos);
  CHECK(after.find("all live memory") == std::string::npos);
}

TEST_CASE("term: search moves the cursor to the first match in time, N wraps to the last") {
  const fs::path dir = sandbox("search");
  const fs::path input = generated(dir, "fixture.pickle", "--events 4000 --seed 7");
  TermSession term(dir, shell_quote(input.string()));
  term.wait_for_text("[peak]");
  term.keys("/");
  term.keys("-l 'forward'");
  term.keys("Enter");
  const std::string found = term.wait_for_text("search 'forward'");
  // The status line's moment: "event #N ..." or, for an allocation live from the start,
  // "before the first event" (-1, as the viewer's print-cursor says it).
  const std::string status = line_with(found, "allocated ");
  REQUIRE((status.starts_with("event #") || status.starts_with("before the first event")));
  const std::string event = status.starts_with("event #") ? status.substr(7, status.find(' ') - 7) : "-1";
#ifdef SNAPSCOPE_APP
  // The viewer's search from no cursor: search-next lands on the same event.
  const fs::path script = dir / "search.txt";
  std::ofstream(script) << "cursor none\nsearch forward\nsearch-next\nprint-cursor\n";
  const std::string viewer =
      run_output("XDG_CACHE_HOME=" + shell_quote((dir / "cache").string()) + " xvfb-run -a " +
                 shell_quote(SNAPSCOPE_APP) + " " + shell_quote(input.string()) + " --script " +
                 shell_quote(script.string()) + " 2>/dev/null");
  const auto cursor = nlohmann::json::parse(viewer.substr(viewer.find('{')));
  CHECK(cursor["event"].get<int64_t>() == std::stoll(event));
#endif
  // N from the first match wraps around to the last match in time: a later event.
  term.keys("N");
  const std::string next = term.wait_for([&](const std::string& shown) {
    return line_with(shown, "allocated ").starts_with("event #") &&
           line_with(shown, "allocated ").find("event #" + event + " ") == std::string::npos;
  });
  CHECK_FALSE(line_with(next, "search 'forward'").empty());
}

TEST_CASE("term: compare shows --diff's peak_delta; resized to 80x24 every pane stays readable") {
  const fs::path dir = sandbox("compare");
  const fs::path a = generated(dir, "a.pickle", "--events 4000 --seed 7");
  const fs::path b = generated(dir, "b.pickle", "--events 5000 --seed 8");
  const auto diff =
      nlohmann::json::parse(run_output(shell_quote(SNAPSCOPE_CONVERT) + " --diff " + shell_quote(a.string()) +
                                       " " + shell_quote(b.string()) + " --summary json"));
  const std::string delta = "(" + std::to_string(diff["peak_delta"].get<int64_t>()) + " B,";
  TermSession term(dir, shell_quote(a.string()) + " " + shell_quote(b.string()));
  const std::string screen = term.wait_for_text("peak delta:");
  CHECK(line_with(screen, "peak delta:").find(delta) != std::string::npos);
  term.wait_for_text("Delta           A           B");  // the diff at the cursor
  // g cycles the rows: by category, then by call path, whose root is A's live total at the cursor.
  term.keys("g g");
  const std::string paths = term.wait_for_text("Call path (top-down)");
  const std::string status = line_with(paths, "[peak]");
  const size_t allocated = status.find("allocated ") + std::string("allocated ").size();
  const std::string live_a = status.substr(allocated, status.find(" (", allocated) - allocated);
  CHECK(line_with(paths, "all live memory").find(live_a) != std::string::npos);
  CHECK(!line_with(paths, "g: rows by location").empty());
  term.resize(80, 24);
  for (const char* pane : {"1", "3", "4", "5", "6"}) {
    term.keys(pane);
    const std::string small = term.wait_for([](const std::string& shown) {
      return shown.find("6 Compare") != std::string::npos && shown.find("[peak]") != std::string::npos;
    });
    CHECK(line_with(small, "[peak]").starts_with("event #"));
    CHECK(!line_with(small, "? help").empty());
  }
  term.keys("q");
  term.wait_for_text("EXITED 0");
}

TEST_CASE("term: ASCII under LANG=C, no colours under NO_COLOR; SIGINT restores the terminal") {
  const fs::path dir = sandbox("ascii");
  const fs::path input = generated(dir, "fixture.pickle", "--events 4000 --seed 7");
  TermSession term(dir, shell_quote(input.string()), 100, 30, "LANG=C LC_ALL=C NO_COLOR=1");
  const std::string screen = term.wait_for_text("[peak]");
  CHECK(screen.find('#') != std::string::npos);       // the bars
  CHECK(screen.find("\u2588") == std::string::npos);  // no UTF-8 blocks
  term.keys("C-c");
  const std::string after = term.wait_for_text("EXITED 130");
  CHECK(after.find("? help") == std::string::npos);
}

TEST_CASE("term: not a terminal: it prints --report (or --diff) and exits") {
  const fs::path dir = sandbox("pipe");
  const fs::path input = generated(dir, "fixture.pickle", "--events 600 --seed 3");
  const std::string piped =
      run_output("XDG_CACHE_HOME=" + shell_quote((dir / "cache").string()) + " " +
                 shell_quote(SNAPSCOPE_TERM) + " " + shell_quote(input.string()) + " < /dev/null | cat");
  CHECK(piped == report(input));
  const std::string bad = run_output(shell_quote(SNAPSCOPE_TERM) + " --bogus 2>&1");
  CHECK(bad.starts_with("snapscope-term: unknown option --bogus\n"));
  CHECK(run_output(shell_quote(SNAPSCOPE_TERM) + " 2>&1").starts_with("snapscope-term: no snapshot given\n"));
  const std::string help = run_output(shell_quote(SNAPSCOPE_TERM) + " --help");
  for (const char* row : {"\n  FILE ", "\n  FILE_B ", "\n  --device N ", "\n  --bench ", "\n  --version ",
                          "\n  -h, --help ", "\nIn a terminal: "}) {
    CAPTURE(row);
    CHECK(help.find(row) != std::string::npos);
  }
}

TEST_CASE("every program answers --version with the project's version and the formats it reads") {
  std::vector<std::pair<std::string, std::string>> programs = {{"snapscope-term", SNAPSCOPE_TERM},
                                                               {"snapscope-convert", SNAPSCOPE_CONVERT},
                                                               {"snapscope-gen", SNAPSCOPE_GEN}};
#ifdef SNAPSCOPE_APP
  programs.emplace_back("snapscope", SNAPSCOPE_APP);
#endif
  for (const auto& program : programs) {
    // Plain references: CAPTURE's lambda cannot name a structured binding under clang 14.
    const std::string& name = program.first;
    const std::string& path = program.second;
    CAPTURE(name);
    const std::string text = run_output(shell_quote(path) + " --version");
    CHECK(text == name + " " + std::string(snapscope::project_version()) + " (elements.db format " +
                      std::to_string(snapscope::kElementsDbVersion) + ", allocations.json format " +
                      std::to_string(snapscope::kAllocationsJsonVersion) + ")\n");
  }
  CHECK(std::string(snapscope::project_version()).find('.') != std::string::npos);
}

TEST_CASE("term: real snapshots open at their peak with --report's first row (SNAPSCOPE_SNAPSHOT_DIR)") {
  const std::string directory = SNAPSCOPE_SNAPSHOTS;
  if (directory.empty()) return;  // the project's own tests run without ../shared
  const fs::path dir = sandbox("real");
  for (const char* name : {"gpt_train_step_ctx128", "train_user_metadata", "windows_paths_fl"}) {
    CAPTURE(name);
    check_opens_at_peak(dir, fs::path(directory) / (std::string(name) + ".pickle"));
  }
  const fs::path a = fs::path(directory) / "gpt_train_step_ctx128.pickle";
  const fs::path b = fs::path(directory) / "train_user_metadata.pickle";
  const auto diff =
      nlohmann::json::parse(run_output(shell_quote(SNAPSCOPE_CONVERT) + " --diff " + shell_quote(a.string()) +
                                       " " + shell_quote(b.string()) + " --summary json"));
  TermSession term(dir, shell_quote(a.string()) + " " + shell_quote(b.string()));
  const std::string screen = term.wait_for_text("peak delta:");
  CHECK(line_with(screen, "peak delta:")
            .find("(" + std::to_string(diff["peak_delta"].get<int64_t>()) + " B,") != std::string::npos);
}
