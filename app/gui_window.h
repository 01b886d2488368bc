// The GLFW window with an OpenGL 3.3 core context and Dear ImGui bound to it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/view/script.h"

struct GLFWwindow;

namespace snapscope {

class GuiWindow {
 public:
  // Throws std::runtime_error when no window or GL context can be created.
  GuiWindow(const char* title, WindowSize size);
  ~GuiWindow();
  GuiWindow(const GuiWindow&) = delete;
  GuiWindow& operator=(const GuiWindow&) = delete;

  GLFWwindow* handle() const { return window_; }
  bool should_close() const;
  void request_close();
  // Sleeps until input arrives or timeout passes; true when any input (mouse, keys, resize,
  // drop) arrived, so idle periods need no frames at all.
  // Headless modes: ImGui sees no pointer at all (no hover effects, no tooltips).
  void set_pointer_ignored(bool ignored) { pointer_ignored_ = ignored; }
  // Scripts: ImGui sees the pointer at (x, y) window pixels with the left button up or down,
  // whatever the OS pointer does, until cleared (std::nullopt).
  struct ScriptedPointer {
    float x = 0, y = 0;
    bool down = false;
  };
  void set_scripted_pointer(std::optional<ScriptedPointer> pointer) { scripted_pointer_ = pointer; }
  bool wait_events(double timeout_seconds);
  void poll_events() const;

  void begin_frame();
  // Renders ImGui into the back buffer (still readable for screenshots), unless the frame would
  // look exactly like the one on screen: then nothing is drawn and present() keeps the old one.
  // True when it drew.
  bool end_frame();
  void force_redraw() { redraw_ = true; }  // the next end_frame draws (a texture changed)
  void present();                          // swaps buffers after a drawn frame
  void finish_gl() const;                  // waits for the GPU: frame timings include the drawing
  int framebuffer_width() const;
  int framebuffer_height() const;
  // The window's size in screen coordinates, and a request for another, waited for (up to 2 s:
  // the X server applies it asynchronously). False if it did not take effect.
  WindowSize size() const;
  bool resize(WindowSize size);

  std::vector<std::string> take_dropped_paths();
  // Keys pressed since the last call, with their modifiers. ImGui 1.86 samples key state once
  // per frame and misses a press and release that arrive together (xdotool, fast typists).
  struct KeyPress {
    int key = 0;
    int mods = 0;
  };
  std::vector<KeyPress> take_key_presses();
  void set_title(const std::string& title);

 private:
  static void on_drop(GLFWwindow* window, int count, const char** paths);
  static void on_key(GLFWwindow* window, int key, int scancode, int action, int mods);
  static void mark_input(GLFWwindow* window);

  GLFWwindow* window_ = nullptr;
  std::vector<std::string> dropped_;
  std::vector<KeyPress> key_presses_;
  bool input_seen_ = false;
  bool redraw_ = true, swap_pending_ = false;
  uint64_t shown_hash_ = 0;  // draw data of the frame on screen
  int shown_width_ = 0, shown_height_ = 0;
  bool pointer_ignored_ = false;
  std::optional<ScriptedPointer> scripted_pointer_;
};

}  // namespace snapscope
