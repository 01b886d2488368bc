# Benchmarks: each tests/bench/bench_*.cpp is its own executable (bin/bench_*). Built with the
# rest so they cannot rot, never run by ctest (they need large generated inputs). Timing a
# sanitized build means nothing, so the fuzz build leaves them out.
if(NOT SNAPSCOPE_FUZZ)
  file(GLOB SNAPSCOPE_BENCH_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/bench_*.cpp)
  foreach(source ${SNAPSCOPE_BENCH_SOURCES})
    get_filename_component(name ${source} NAME_WE)
    add_executable(${name} ${source})
    target_link_libraries(${name} PRIVATE snapscope_core snapscope_flags)
  endforeach()
endif()

# The scaler's streaming pickler must write what pickle.dump writes (benchmark inputs at any size
# keep PyTorch's shape): checked byte for byte, in a second.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  add_test(NAME pickle_stream COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check-pickle-stream)
  set_tests_properties(pickle_stream PROPERTIES LABELS "unit")
endif()
