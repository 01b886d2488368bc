# Fuzz harnesses (tests/fuzz/README.md). An ordinary build links each with replay_main.cpp and
# replays its committed corpus as a ctest case, so every kept regression input runs with that
# build's compiler (and under ASan+UBSan in CI's sanitizer build). With -DSNAPSCOPE_FUZZ=ON and
# clang they are libFuzzer binaries (build-fuzz/bin/fuzz_<name>) for tests/fuzz/run-fuzz.
set(SNAPSCOPE_FUZZ_HARNESSES snapshot_reader allocations_json converted_dir script sql_guard rank_summary rules
  json_snapshot)
set(SNAPSCOPE_FUZZ_DIR ${CMAKE_CURRENT_LIST_DIR})

add_library(snapscope_fuzz_fixture STATIC ${SNAPSCOPE_FUZZ_DIR}/fuzz_fixture.cpp)
target_link_libraries(snapscope_fuzz_fixture PUBLIC snapscope_core snapscope_flags)

foreach(name ${SNAPSCOPE_FUZZ_HARNESSES})
  add_executable(fuzz_${name} ${SNAPSCOPE_FUZZ_DIR}/fuzz_${name}.cpp)
  target_link_libraries(fuzz_${name} PRIVATE snapscope_fuzz_fixture)
  if(SNAPSCOPE_FUZZ)
    target_link_options(fuzz_${name} PRIVATE -fsanitize=fuzzer)
  else()
    target_sources(fuzz_${name} PRIVATE ${SNAPSCOPE_FUZZ_DIR}/replay_main.cpp)
    add_test(NAME fuzz_replay_${name} COMMAND fuzz_${name} ${SNAPSCOPE_FUZZ_DIR}/corpus/${name})
    set_tests_properties(fuzz_replay_${name} PROPERTIES LABELS "unit")
  endif()
endforeach()
