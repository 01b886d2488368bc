// The terminal itself: ncurses set up and restored (on return, on an exception, on SIGINT and
// SIGTERM), what it can show (UTF-8 or ASCII, 256, 8 or no colours, NO_COLOR) and clipped
// drawing. Everything above it draws through put().
#pragma once

#include <curses.h>

#include <csignal>
#include <string>
#include <string_view>

namespace snapscope::term {

enum class Ink : short {
  Normal = 0,
  Allocated,  // the chart's bars
  Reserved,   // the reserved line
  RunB,       // compare: run B's total
  Cursor,     // the time cursor's column
  Hot,        // heat: a row holding half or more of the live bytes
  Warm,       // a fifth or more
  Mild,       // a twentieth or more
  Title,      // the top bar and the selected tab
  Dim,        // hints, axes
  Phase,      // the phase lane
  Alert,      // errors, OOM
};

class Terminal {
 public:
  // getch returns ERR after this long without a key, so background results are drawn without one.
  static constexpr int kKeyWaitMs = 100;

  Terminal();   // initscr and friends; throws std::runtime_error when there is no terminal
  ~Terminal();  // endwin: the shell gets its screen back
  Terminal(const Terminal&) = delete;
  Terminal& operator=(const Terminal&) = delete;

  int rows() const { return LINES; }
  int cols() const { return COLS; }
  bool utf8() const { return utf8_; }
  bool colors() const { return colors_; }

  // Draws `text` from (y, x), at most `width` cells (to the screen's edge when negative), in
  // `ink` (plus `extra` attributes). Text is UTF-8; one code point is one cell.
  void put(int y, int x, std::string_view text, int width = -1, Ink ink = Ink::Normal,
           attr_t extra = A_NORMAL) const;
  void fill(int y, int x, int width, Ink ink, attr_t extra = A_NORMAL) const;  // blanks
  // One of two glyphs: the UTF-8 one when the terminal shows UTF-8, else the ASCII one.
  const char* glyph(const char* utf8, const char* ascii) const { return utf8_ ? utf8 : ascii; }

  // SIGINT or SIGTERM arrived: the main loop returns, and the destructor restores the screen.
  static bool interrupted();
  static int interrupt_exit_code();  // 128 + the signal, as a shell reports it (130, 143)

 private:
  void init_colors();
  attr_t attributes(Ink ink) const;

  bool utf8_ = false;
  bool colors_ = false;
};

// Code points in UTF-8 `text` (what one-cell-per-code-point drawing takes).
int cell_width(std::string_view text);
// `text` cut to `width` cells, "..." (or "…") marking the cut; empty when width is 0.
std::string fit_cells(std::string_view text, int width, bool utf8);
// The same, cut from the left: the end (a file name, a line) stays.
std::string fit_cells_left(std::string_view text, int width, bool utf8);

}  // namespace snapscope::term
