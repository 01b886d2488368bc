# GL tests of the render library: tests/gui/test_render*.cpp in one doctest binary, rendering
# offscreen through EGL (surfaceless Mesa: no X server or window needed).
if(SNAPSCOPE_BUILD_VIEWER)
  file(GLOB SNAPSCOPE_GUI_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/test_render*.cpp)
  add_executable(snapscope_gui_tests ${CMAKE_CURRENT_LIST_DIR}/../unit/main.cpp ${SNAPSCOPE_GUI_TESTS})
  target_link_libraries(snapscope_gui_tests PRIVATE snapscope_render snapscope_core snapscope_flags)
  target_include_directories(snapscope_gui_tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/..)
  add_test(NAME gui COMMAND snapscope_gui_tests)
  set_tests_properties(gui PROPERTIES LABELS "gui" ENVIRONMENT "EGL_PLATFORM=surfaceless")
endif()

# App tests: the real snapscope binary under Xvfb (Mesa llvmpipe): screenshots checked against
# the core's layout, and real X input through xdotool.
if(SNAPSCOPE_BUILD_VIEWER AND TARGET snapscope AND TARGET snapscope-gen)
  find_program(SNAPSCOPE_XVFB_RUN xvfb-run REQUIRED)
  set(SNAPSCOPE_XVFB ${SNAPSCOPE_XVFB_RUN} -a -s "-screen 0 1920x1080x24")
  file(GLOB SNAPSCOPE_APP_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/app_*_tests.cpp)
  add_executable(snapscope_app_tests ${CMAKE_CURRENT_LIST_DIR}/../unit/main.cpp
    ${CMAKE_CURRENT_LIST_DIR}/gui_harness.cpp ${SNAPSCOPE_APP_TESTS})
  target_link_libraries(snapscope_app_tests PRIVATE snapscope_render snapscope_core snapscope_flags stb)
  target_include_directories(snapscope_app_tests PRIVATE ${PROJECT_SOURCE_DIR})
  target_include_directories(snapscope_app_tests SYSTEM PRIVATE /usr/include/stb)
  target_compile_definitions(snapscope_app_tests PRIVATE SNAPSCOPE_APP="$<TARGET_FILE:snapscope>"
    SNAPSCOPE_GEN="$<TARGET_FILE:snapscope-gen>")
  add_dependencies(snapscope_app_tests snapscope snapscope-gen)

  add_test(NAME gui_app_screenshots COMMAND ${SNAPSCOPE_XVFB} $<TARGET_FILE:snapscope_app_tests>)
  add_test(NAME gui_app_xdotool COMMAND ${SNAPSCOPE_XVFB} ${CMAKE_CURRENT_LIST_DIR}/e2e_xdotool.sh
    $<TARGET_FILE:snapscope> $<TARGET_FILE:snapscope-gen>)
  set_tests_properties(gui_app_screenshots gui_app_xdotool PROPERTIES LABELS "gui" TIMEOUT 300)
  if(SNAPSCOPE_SNAPSHOT_DIR)
    set_tests_properties(gui_app_screenshots PROPERTIES
      ENVIRONMENT "SNAPSCOPE_SNAPSHOT_DIR=${SNAPSCOPE_SNAPSHOT_DIR}")
  endif()
endif()
