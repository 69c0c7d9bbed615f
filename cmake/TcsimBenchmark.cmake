# tcsim_benchmark(): one benchmark program, the target that runs it, and the ctest test
# of its JSON report. A benchmark prints figures and writes them to
# ${TCSIM_REPORTS_DIR}/<REPORT>, the path being its first argument; it is not a test
# (figures measured on a shared machine are not pass/fail). What is tested is that its
# report cannot silently go missing: tb/bench_json_test.sh runs it with an unwritable
# path (must fail before the run) and with /dev/full (must fail after it).
#
#   tcsim_benchmark(<exe> SOURCE <file.c> LINK <library> RUN_TARGET <target>
#                   REPORT <name.json> TEST <test> LABELS <label>...
#                   [TEST_ARGS <arg>...])
#
# RUN_TARGET is the name users type (`cmake --build build --target RUN_TARGET`) and the
# docs cite; TEST_ARGS follow the report path in the test's shorter run.
function(tcsim_benchmark exe)
  cmake_parse_arguments(PARSE_ARGV 1 B "" "SOURCE;LINK;RUN_TARGET;REPORT;TEST"
                        "LABELS;TEST_ARGS")
  foreach(_req SOURCE LINK RUN_TARGET REPORT TEST LABELS)
    if(NOT B_${_req})
      message(FATAL_ERROR "tcsim_benchmark(${exe}): ${_req} is required")
    endif()
  endforeach()
  if(B_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tcsim_benchmark(${exe}): unknown arguments ${B_UNPARSED_ARGUMENTS}")
  endif()

  add_executable(${exe} ${B_SOURCE})
  # tcsim_testkit: report_file.h and bench_clock.h
  target_link_libraries(${exe} PRIVATE ${B_LINK} tcsim_testkit)
  target_compile_options(${exe} PRIVATE ${TCSIM_C_WARNINGS})
  add_custom_target(${B_RUN_TARGET}
    COMMAND ${exe} ${TCSIM_REPORTS_DIR}/${B_REPORT}
    DEPENDS ${exe}
    USES_TERMINAL)
  add_test(NAME ${B_TEST}
           COMMAND bash ${CMAKE_SOURCE_DIR}/tb/bench_json_test.sh
                   ${CMAKE_CURRENT_BINARY_DIR}/${B_TEST}_work
                   $<TARGET_FILE:${exe}> @JSON@ ${B_TEST_ARGS})
  set_tests_properties(${B_TEST} PROPERTIES LABELS "${B_LABELS}")
endfunction()
