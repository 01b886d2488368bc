// snapscope: the viewer. See core/view/app_options.cpp for the command line.
#include <cstdio>
#include <exception>
#include <string_view>
#include <vector>

#include "app/application.h"
#include "app/headless/headless_runner.h"
#include "core/store/version/version.h"
#include "core/view/app_options.h"

int main(int argc, char** argv) {
  using namespace snapscope;
  if (asks_for_version(argc, argv)) return std::fputs(version_text("snapscope").c_str(), stdout), 0;
  AppOptions options;
  try {
    const std::vector<std::string_view> arguments(argv + 1, argv + argc);
    options = parse_app_options(arguments);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "snapscope: %s\n%s", error.what(), app_usage().c_str());
    return 2;
  }
  if (options.help) {
    std::fputs(app_usage().c_str(), stdout);
    return 0;
  }
  try {
    Application app(options);
    // Headless output must not depend on where the X pointer happens to be (Xvfb puts it at the
    // screen's centre, over the window): no hover, no tooltip.
    if (options.headless()) app.window().set_pointer_ignored(true);
    if (options.script) return run_script(app, *options.script);
    if (options.screenshot) return run_screenshot(app, *options.screenshot);
    if (options.export_png) return run_export_png(app, *options.export_png, *options.image_size);
    if (options.bench) return run_bench(app);
    return app.run_interactive();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "snapscope: %s\n", error.what());
    return 1;
  }
}
