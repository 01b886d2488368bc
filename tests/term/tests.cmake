# End-to-end tests of snapscope-term through a real terminal: tmux runs it at a given size,
# send-keys types, capture-pane reads the screen. Needs tmux (scripts/install-deps installs it).
if(TARGET snapscope-term AND TARGET snapscope-gen)
  find_program(SNAPSCOPE_TMUX tmux REQUIRED)
  add_executable(snapscope_term_tests ${CMAKE_CURRENT_LIST_DIR}/../unit/main.cpp
    ${CMAKE_CURRENT_LIST_DIR}/term_tmux_tests.cpp)
  target_link_libraries(snapscope_term_tests PRIVATE snapscope_core snapscope_flags)
  target_include_directories(snapscope_term_tests PRIVATE ${PROJECT_SOURCE_DIR})
  set(term_definitions SNAPSCOPE_TERM="$<TARGET_FILE:snapscope-term>"
    SNAPSCOPE_CONVERT="$<TARGET_FILE:snapscope-convert>" SNAPSCOPE_GEN="$<TARGET_FILE:snapscope-gen>"
    SNAPSCOPE_TMUX="${SNAPSCOPE_TMUX}" SNAPSCOPE_SNAPSHOTS="${SNAPSCOPE_SNAPSHOT_DIR}")
  if(TARGET snapscope)
    list(APPEND term_definitions SNAPSCOPE_APP="$<TARGET_FILE:snapscope>")
  endif()
  target_compile_definitions(snapscope_term_tests PRIVATE ${term_definitions})
  add_dependencies(snapscope_term_tests snapscope-term snapscope-convert snapscope-gen)
  add_test(NAME term COMMAND snapscope_term_tests)
  set_tests_properties(term PROPERTIES LABELS "term" TIMEOUT 600)
endif()
