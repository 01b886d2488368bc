// Keeps short key presses visible for one whole frame. ImGui 1.86 reads key state once per
// frame, so a press and its release arriving between two frames (a quick tap on a loaded
// machine, xdotool, a fast arrow tap while stepping the cursor) would never be seen as pressed.
// The latch forwards presses at once and holds such releases back until the next frame.
#pragma once

struct GLFWwindow;

namespace snapscope::key_latch {

// After ImGui_ImplGlfw_InitForOpenGL: wraps its key callback. One window per process.
void install(GLFWwindow* window);
// At the start of every frame, before ImGui's NewFrame: delivers the releases held back.
void next_frame();

}  // namespace snapscope::key_latch
