# GL tests: tests/gui/test_*.cpp in one doctest binary, rendering offscreen through EGL
# (surfaceless Mesa: no X server or window needed).
if(SNAPSCOPE_BUILD_VIEWER)
  file(GLOB SNAPSCOPE_GUI_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/test_*.cpp)
  add_executable(snapscope_gui_tests ${CMAKE_CURRENT_LIST_DIR}/../unit/main.cpp ${SNAPSCOPE_GUI_TESTS})
  target_link_libraries(snapscope_gui_tests PRIVATE snapscope_render snapscope_core snapscope_flags)
  target_include_directories(snapscope_gui_tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/../unit)
  add_test(NAME gui COMMAND snapscope_gui_tests)
  set_tests_properties(gui PROPERTIES LABELS "gui" ENVIRONMENT "EGL_PLATFORM=surfaceless")
endif()
