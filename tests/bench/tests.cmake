# Benchmarks: each tests/bench/bench_*.cpp is its own executable (bin/bench_*). Built with the
# rest so they cannot rot, never run by ctest (they need large generated inputs).
file(GLOB SNAPSCOPE_BENCH_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/bench_*.cpp)
foreach(source ${SNAPSCOPE_BENCH_SOURCES})
  get_filename_component(name ${source} NAME_WE)
  add_executable(${name} ${source})
  target_link_libraries(${name} PRIVATE snapscope_core snapscope_flags)
endforeach()
