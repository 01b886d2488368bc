# The layering rule is itself tested: a source of snapscope_core_analysis that includes
# core/document/ must fail to compile with "No such file" (gcc) or "file not found" (clang), because each core library's include root
# holds only its own folder and those of the libraries it links (core/CMakeLists.txt).
add_library(layering_probe_upward OBJECT EXCLUDE_FROM_ALL ${CMAKE_CURRENT_LIST_DIR}/upward_include.cpp)
target_link_libraries(layering_probe_upward PRIVATE snapscope_core_analysis)
add_test(NAME layering_upward_include_refused
  COMMAND ${CMAKE_COMMAND} --build ${CMAKE_BINARY_DIR} --target layering_probe_upward)
set_tests_properties(layering_upward_include_refused PROPERTIES LABELS "unit"
  PASS_REGULAR_EXPRESSION "core/document/document\\.h(: No such file|' file not found)")
