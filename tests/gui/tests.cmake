# GL tests: tests/gui/test_render_*.cpp in one doctest binary, rendering offscreen through EGL
# (surfaceless Mesa: no X server or window needed).
if(SNAPSCOPE_BUILD_VIEWER)
  file(GLOB SNAPSCOPE_GL_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/test_render_*.cpp)
  add_executable(snapscope_gl_tests ${CMAKE_CURRENT_LIST_DIR}/../unit/main.cpp ${SNAPSCOPE_GL_TESTS})
  target_link_libraries(snapscope_gl_tests PRIVATE snapscope_render snapscope_core snapscope_flags)
  target_include_directories(snapscope_gl_tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/../unit)
  add_test(NAME gui COMMAND snapscope_gl_tests)
  set_tests_properties(gui PROPERTIES LABELS "gui" ENVIRONMENT "EGL_PLATFORM=surfaceless")
endif()

# GUI tests: the real snapscope binary under Xvfb (Mesa llvmpipe), label "gui".
if(SNAPSCOPE_BUILD_VIEWER AND TARGET snapscope AND TARGET snapscope-gen)
  find_program(SNAPSCOPE_XVFB_RUN xvfb-run)
  set(SNAPSCOPE_XVFB ${SNAPSCOPE_XVFB_RUN} -a -s "-screen 0 1920x1080x24")
  file(GLOB SNAPSCOPE_APP_GUI_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/test_gui_*.cpp)
  add_executable(snapscope_gui_tests ${CMAKE_CURRENT_LIST_DIR}/../unit/main.cpp
    ${CMAKE_CURRENT_LIST_DIR}/gui_harness.cpp ${SNAPSCOPE_APP_GUI_TESTS})
  target_link_libraries(snapscope_gui_tests PRIVATE snapscope_core snapscope_flags stb)
  target_include_directories(snapscope_gui_tests PRIVATE ${PROJECT_SOURCE_DIR})
  target_include_directories(snapscope_gui_tests SYSTEM PRIVATE /usr/include/imgui /usr/include/stb)
  target_compile_definitions(snapscope_gui_tests PRIVATE SNAPSCOPE_APP="$<TARGET_FILE:snapscope>"
    SNAPSCOPE_GEN="$<TARGET_FILE:snapscope-gen>")
  add_dependencies(snapscope_gui_tests snapscope snapscope-gen)

  add_test(NAME gui_screenshots COMMAND ${SNAPSCOPE_XVFB} $<TARGET_FILE:snapscope_gui_tests>)
  add_test(NAME gui_e2e_xdotool COMMAND ${SNAPSCOPE_XVFB} ${CMAKE_CURRENT_LIST_DIR}/e2e_xdotool.sh
    $<TARGET_FILE:snapscope> $<TARGET_FILE:snapscope-gen>)
  set_tests_properties(gui_screenshots gui_e2e_xdotool PROPERTIES LABELS "gui" TIMEOUT 300)
  if(SNAPSCOPE_SNAPSHOT_DIR)
    set_tests_properties(gui_screenshots PROPERTIES ENVIRONMENT "SNAPSCOPE_SNAPSHOT_DIR=${SNAPSCOPE_SNAPSHOT_DIR}")
  endif()
endif()
