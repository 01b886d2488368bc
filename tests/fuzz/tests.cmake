# Fuzz harnesses (tests/fuzz/README.md). Each replays its committed corpus as a ctest case, so
# every kept regression input runs with each build's compiler. An ordinary build links the harness
# with replay_main.cpp; with -DSNAPSCOPE_FUZZ=ON and clang it is a libFuzzer binary
# (build-fuzz/bin/fuzz_<name>, for tests/fuzz/run-fuzz) and -runs=0 replays the corpus under
# ASan+UBSan without fuzzing.
set(SNAPSCOPE_FUZZ_HARNESSES snapshot_reader allocations_json converted_dir script sql_guard rank_summary rules
  json_snapshot)
set(SNAPSCOPE_FUZZ_DIR ${CMAKE_CURRENT_LIST_DIR})

add_library(snapscope_fuzz_fixture STATIC ${SNAPSCOPE_FUZZ_DIR}/fuzz_fixture.cpp
  ${SNAPSCOPE_FUZZ_DIR}/../unit/support/snapshot_digest.cpp)
target_link_libraries(snapscope_fuzz_fixture PUBLIC snapscope_core snapscope_flags)
target_include_directories(snapscope_fuzz_fixture PUBLIC ${SNAPSCOPE_FUZZ_DIR}/..)

foreach(name ${SNAPSCOPE_FUZZ_HARNESSES})
  add_executable(fuzz_${name} ${SNAPSCOPE_FUZZ_DIR}/fuzz_${name}.cpp)
  target_link_libraries(fuzz_${name} PRIVATE snapscope_fuzz_fixture)
  if(SNAPSCOPE_FUZZ)
    target_link_options(fuzz_${name} PRIVATE -fsanitize=fuzzer)
    add_test(NAME fuzz_replay_${name} COMMAND fuzz_${name} -runs=0 -rss_limit_mb=2048
      -artifact_prefix=${CMAKE_BINARY_DIR}/ ${SNAPSCOPE_FUZZ_DIR}/corpus/${name})
  else()
    target_sources(fuzz_${name} PRIVATE ${SNAPSCOPE_FUZZ_DIR}/replay_main.cpp)
    add_test(NAME fuzz_replay_${name} COMMAND fuzz_${name} ${SNAPSCOPE_FUZZ_DIR}/corpus/${name})
  endif()
  set_tests_properties(fuzz_replay_${name} PROPERTIES LABELS "unit")
endforeach()
