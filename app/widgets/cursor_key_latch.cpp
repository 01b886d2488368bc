#include "app/widgets/cursor_key_latch.h"

#include <GLFW/glfw3.h>

#include <unordered_set>
#include <vector>

namespace snapscope::key_latch {
namespace {

struct HeldRelease {
  int key, scancode, mods;
};

struct Latch {
  GLFWwindow* window = nullptr;
  GLFWkeyfun forward = nullptr;     // ImGui's key callback
  std::unordered_set<int> pressed;  // keys pressed since the last frame started
  std::vector<HeldRelease> held;    // released in the same batch as their press
  std::vector<HeldRelease> due;     // to deliver when the next frame starts
};

Latch& latch() {
  static Latch instance;
  return instance;
}

void on_key(GLFWwindow* window, int key, int scancode, int action, int mods) {
  Latch& state = latch();
  if (action == GLFW_PRESS) state.pressed.insert(key);
  // Any release after a press in the same batch waits: the frame must see the whole chord,
  // even when its modifier (ctrl+j) goes up first.
  if (action == GLFW_RELEASE && !state.pressed.empty()) {
    state.held.push_back({key, scancode, mods});
    return;
  }
  if (state.forward != nullptr) state.forward(window, key, scancode, action, mods);
}

}  // namespace

void install(GLFWwindow* window) {
  Latch& state = latch();
  state.window = window;
  state.forward = glfwSetKeyCallback(window, &on_key);
}

void next_frame() {
  Latch& state = latch();
  // Releases held before the previous frame: that frame saw the key down, now let it go up.
  for (const HeldRelease& release : state.due) {
    if (state.forward != nullptr)
      state.forward(state.window, release.key, release.scancode, GLFW_RELEASE, release.mods);
  }
  state.due = std::move(state.held);
  state.held.clear();
  state.pressed.clear();
}

}  // namespace snapscope::key_latch
