#include "term/terminal.h"

#include "core/util/printable.h"

#include <langinfo.h>
#include <unistd.h>

#include <clocale>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace snapscope::term {
namespace {

volatile std::sig_atomic_t g_interrupted = 0;

void on_signal(int signal) { g_interrupted = signal; }

void install_signal_handlers() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Byte offset of the first `cells` code points of `text`.
size_t prefix_bytes(std::string_view text, int cells) {
  size_t at = 0;
  for (int n = 0; at < text.size() && n < cells; ++n) {
    ++at;
    while (at < text.size() && is_continuation(text[at])) ++at;
  }
  return at;
}

struct InkColors {
  short foreground_256, foreground_8;
  short background;  // -1: the terminal's own
};

constexpr InkColors kInks[] = {
    {-1, -1, -1},              // Normal
    {39, COLOR_CYAN, -1},      // Allocated
    {214, COLOR_YELLOW, -1},   // Reserved
    {207, COLOR_MAGENTA, -1},  // RunB
    {16, COLOR_BLACK, 255},    // Cursor (on white)
    {203, COLOR_RED, -1},      // Hot
    {221, COLOR_YELLOW, -1},   // Warm
    {114, COLOR_GREEN, -1},    // Mild
    {16, COLOR_BLACK, 37},     // Title (on teal)
    {245, COLOR_WHITE, -1},    // Dim
    {16, COLOR_BLACK, 150},    // Phase (on pale green)
    {196, COLOR_RED, -1},      // Alert
};

}  // namespace

Terminal::Terminal() {
  std::setlocale(LC_ALL, "");
  if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) throw std::runtime_error("not a terminal");
  const char* codeset = nl_langinfo(CODESET);
  utf8_ = codeset != nullptr && std::strcmp(codeset, "UTF-8") == 0;
  if (initscr() == nullptr) throw std::runtime_error("cannot initialise the terminal");
  install_signal_handlers();  // after initscr: ncurses installs its own for SIGINT and SIGTERM
  cbreak();
  noecho();
  keypad(stdscr, TRUE);
  curs_set(0);
  set_escdelay(25);
  timeout(kKeyWaitMs);
  mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, nullptr);
  init_colors();
}

Terminal::~Terminal() {
  curs_set(1);
  endwin();
}

bool Terminal::interrupted() { return g_interrupted != 0; }

int Terminal::interrupt_exit_code() { return 128 + static_cast<int>(g_interrupted); }

void Terminal::init_colors() {
  const char* no_color = std::getenv("NO_COLOR");
  if ((no_color != nullptr && no_color[0] != '\0') || !has_colors()) return;
  start_color();
  use_default_colors();
  colors_ = true;
  const bool rich = COLORS >= 256;
  for (short ink = 1; ink < static_cast<short>(std::size(kInks)); ++ink) {
    const InkColors& c = kInks[ink];
    const short background = c.background < 0 ? -1 : rich ? c.background : COLOR_WHITE;
    init_pair(ink, rich ? c.foreground_256 : c.foreground_8, background);
  }
}

attr_t Terminal::attributes(Ink ink) const {
  if (colors_) {
    const attr_t bold = ink == Ink::Hot || ink == Ink::Title || ink == Ink::Alert ? A_BOLD : A_NORMAL;
    return ink == Ink::Normal ? A_NORMAL : COLOR_PAIR(static_cast<short>(ink)) | bold;
  }
  switch (ink) {  // no colours: what attributes alone can say
    case Ink::Cursor:
    case Ink::Title:
    case Ink::Phase:
      return A_REVERSE;
    case Ink::Hot:
    case Ink::Alert:
      return A_BOLD;
    case Ink::Dim:
      return A_DIM;
    default:
      return A_NORMAL;
  }
}

void Terminal::put(int y, int x, std::string_view text, int width, Ink ink, attr_t extra) const {
  if (y < 0 || y >= rows() || x >= cols()) return;
  if (x < 0) {
    text.remove_prefix(prefix_bytes(text, -x));
    width += width >= 0 ? x : 0;
    x = 0;
  }
  const int room = width < 0 ? cols() - x : std::min(width, cols() - x);
  if (room <= 0) return;
  // Names come from untrusted snapshots: an ESC or a newline in a frame must not reach the terminal.
  const std::string safe = printable(text);
  const std::string_view visible = safe;
  const std::string shown(visible.substr(0, prefix_bytes(visible, room)));
  attron(attributes(ink) | extra);
  mvaddstr(y, x, shown.c_str());
  attroff(attributes(ink) | extra);
}

void Terminal::fill(int y, int x, int width, Ink ink, attr_t extra) const {
  if (width > 0) put(y, x, std::string(static_cast<size_t>(width), ' '), width, ink, extra);
}

int cell_width(std::string_view text) {
  int cells = 0;
  for (const char c : text) cells += !is_continuation(c);
  return cells;
}

std::string fit_cells(std::string_view text, int width, bool utf8) {
  if (width <= 0) return {};
  if (cell_width(text) <= width) return std::string(text);
  const std::string mark = utf8 ? "\u2026" : "...";
  const int keep = width - cell_width(mark);
  if (keep <= 0) return std::string(text.substr(0, prefix_bytes(text, width)));
  return std::string(text.substr(0, prefix_bytes(text, keep))) + mark;
}

std::string fit_cells_left(std::string_view text, int width, bool utf8) {
  if (width <= 0) return {};
  const int cells = cell_width(text);
  if (cells <= width) return std::string(text);
  const std::string mark = utf8 ? "\u2026" : "...";
  const int keep = width - cell_width(mark);
  if (keep <= 0) return std::string(text.substr(prefix_bytes(text, cells - width)));
  return mark + std::string(text.substr(prefix_bytes(text, cells - keep)));
}

}  // namespace snapscope::term
