// The main menu bar (File, View) and the status bar with load progress and errors.
#pragma once

#include "app/app_state.h"
#include "app/file_browser.h"

namespace snapscope {

struct MenuActions {
  bool quit = false;
  bool color_changed = false;
  bool export_requested = false;   // File > Export...
  bool compare_requested = false;  // File > Compare with... (pick run B in the file browser)
  bool compare_closed = false;     // File > Close Comparison
};

MenuActions draw_menu_bar(AppState& app, FileBrowser& browser);
void draw_status_bar(AppState& app, float y, float width, float height);

}  // namespace snapscope
