#include "app/gui_window.h"

#include <cfloat>
#include <chrono>
#include <thread>

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include "app/widgets/cursor_key_latch.h"

#include <stdexcept>

#include "app/widgets/draw_data_hash.h"
#include "render/chart_renderer.h"

namespace snapscope {

GuiWindow::GuiWindow(const char* title, WindowSize size) {
  if (glfwInit() != GLFW_TRUE) throw std::runtime_error("cannot initialise GLFW (no display?)");
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  window_ = glfwCreateWindow(size.width, size.height, title, nullptr, nullptr);
  if (window_ == nullptr) {
    glfwTerminate();
    throw std::runtime_error("cannot create an OpenGL 3.3 core window");
  }
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(0);  // frame pacing comes from wait_events, not vsync (headless has none)
  if (!load_gl(glfwGetProcAddress)) {
    glfwDestroyWindow(window_);
    glfwTerminate();
    throw std::runtime_error("cannot load OpenGL functions");
  }
  glfwSetWindowUserPointer(window_, this);
  glfwSetDropCallback(window_, &GuiWindow::on_drop);
  // Installed before ImGui's backend, which chains to them; they only note that input arrived.
  glfwSetKeyCallback(window_, &GuiWindow::on_key);
  glfwSetCursorPosCallback(window_, [](GLFWwindow* w, double, double) { mark_input(w); });
  glfwSetMouseButtonCallback(window_, [](GLFWwindow* w, int, int, int) { mark_input(w); });
  glfwSetScrollCallback(window_, [](GLFWwindow* w, double, double) { mark_input(w); });
  glfwSetCharCallback(window_, [](GLFWwindow* w, unsigned) { mark_input(w); });
  glfwSetCursorEnterCallback(window_, [](GLFWwindow* w, int) { mark_input(w); });
  glfwSetWindowFocusCallback(window_, [](GLFWwindow* w, int) { mark_input(w); });
  glfwSetFramebufferSizeCallback(window_, [](GLFWwindow* w, int, int) { mark_input(w); });
  glfwSetWindowRefreshCallback(window_, [](GLFWwindow* w) {
    mark_input(w);
    static_cast<GuiWindow*>(glfwGetWindowUserPointer(w))->redraw_ = true;  // contents were lost
  });

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // layout is fixed; no imgui.ini next to the user's files
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  key_latch::install(window_);  // quick key taps must not fall between two frames
  ImGui_ImplOpenGL3_Init("#version 330 core");
  // Its shaders and font texture, which its first frame would make otherwise: here they are made
  // while the snapshot still loads, not after it.
  ImGui_ImplOpenGL3_CreateDeviceObjects();
}

GuiWindow::~GuiWindow() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window_);
  glfwTerminate();
}

bool GuiWindow::should_close() const { return glfwWindowShouldClose(window_) != 0; }
void GuiWindow::request_close() { glfwSetWindowShouldClose(window_, GLFW_TRUE); }
bool GuiWindow::wait_events(double timeout_seconds) {
  input_seen_ = false;
  glfwWaitEventsTimeout(timeout_seconds);
  return input_seen_;
}

void GuiWindow::mark_input(GLFWwindow* window) {
  static_cast<GuiWindow*>(glfwGetWindowUserPointer(window))->input_seen_ = true;
}
void GuiWindow::poll_events() const { glfwPollEvents(); }

void GuiWindow::begin_frame() {
  key_latch::next_frame();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGuiIO& io = ImGui::GetIO();
  if (pointer_ignored_) io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  if (scripted_pointer_) {
    io.MousePos = ImVec2(scripted_pointer_->x, scripted_pointer_->y);
    io.MouseDown[ImGuiMouseButton_Left] = scripted_pointer_->down;
  }
  ImGui::NewFrame();
}

bool GuiWindow::end_frame() {
  ImGui::Render();
  const int width = framebuffer_width(), height = framebuffer_height();
  const uint64_t hash = hash_draw_data(*ImGui::GetDrawData());
  // A software GL spends tens of ms on a full-window redraw; an unchanged frame costs none.
  if (!redraw_ && hash == shown_hash_ && width == shown_width_ && height == shown_height_) return false;
  glViewport(0, 0, width, height);
  // The workspace window has no background of its own (a full-window blend is a third of a
  // software-rendered frame): the clear colour is what ImGui's dark window background over the old
  // clear colour composited to.
  glClearColor(0.0612f, 0.0612f, 0.0618f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  redraw_ = false;
  swap_pending_ = true;
  shown_hash_ = hash;
  shown_width_ = width;
  shown_height_ = height;
  return true;
}

void GuiWindow::present() {
  if (!swap_pending_) return;
  glfwSwapBuffers(window_);
  swap_pending_ = false;
}
void GuiWindow::finish_gl() const { glFinish(); }

WindowSize GuiWindow::size() const {
  WindowSize size;
  glfwGetWindowSize(window_, &size.width, &size.height);
  return size;
}

bool GuiWindow::resize(WindowSize wanted) {
  glfwSetWindowSize(window_, wanted.width, wanted.height);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  for (;;) {
    glfwPollEvents();
    const WindowSize now = size();
    if (now.width == wanted.width && now.height == wanted.height) return true;
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

int GuiWindow::framebuffer_width() const {
  int width = 0, height = 0;
  glfwGetFramebufferSize(window_, &width, &height);
  return width;
}

int GuiWindow::framebuffer_height() const {
  int width = 0, height = 0;
  glfwGetFramebufferSize(window_, &width, &height);
  return height;
}

std::vector<std::string> GuiWindow::take_dropped_paths() {
  std::vector<std::string> paths;
  paths.swap(dropped_);
  return paths;
}

std::vector<GuiWindow::KeyPress> GuiWindow::take_key_presses() {
  std::vector<KeyPress> presses;
  presses.swap(key_presses_);
  return presses;
}

void GuiWindow::on_key(GLFWwindow* window, int key, int /*scancode*/, int action, int mods) {
  auto* self = static_cast<GuiWindow*>(glfwGetWindowUserPointer(window));
  if (action == GLFW_PRESS) self->key_presses_.push_back({key, mods});
  self->input_seen_ = true;
}

void GuiWindow::set_title(const std::string& title) { glfwSetWindowTitle(window_, title.c_str()); }

void GuiWindow::on_drop(GLFWwindow* window, int count, const char** paths) {
  auto* self = static_cast<GuiWindow*>(glfwGetWindowUserPointer(window));
  for (int i = 0; i < count; ++i) self->dropped_.emplace_back(paths[i]);
  self->input_seen_ = true;
}

}  // namespace snapscope
