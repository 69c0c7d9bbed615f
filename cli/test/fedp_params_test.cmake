# fedp_params_test.cmake - `cmake -DTCSIM=<tcsim> -DSOURCE_DIR=<repo> -P` this file: the
# FEDP parameter sets CMake reads from rtl/tc_pkg.sv (cmake/TcsimFedpParams.cmake: the -G
# values of tb/fedp's Verilated instances) are those `tcsim fedp-params` folds from the
# model's table now, field for field, for every preset (a stale package, or a reader
# that takes volta_fp16_acc16's line for volta_fp16's, fails here); and fedp-params
# refuses an unknown preset or a bad spec with exit 2 and a message naming it.
set(CMAKE_SOURCE_DIR ${SOURCE_DIR})
include(${SOURCE_DIR}/cmake/TcsimFedpParams.cmake)

execute_process(COMMAND ${TCSIM} fedp-params RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tcsim fedp-params exited ${rc}: ${err}")
endif()
string(REGEX MATCHALL "[^\n]+" lines "${out}")
list(LENGTH lines n)
if(n LESS 13)
  message(FATAL_ERROR "tcsim fedp-params printed ${n} presets, expected at least 13:\n${out}")
endif()
foreach(line IN LISTS lines)
  string(REPLACE " " ";" fields "${line}")
  list(POP_FRONT fields name)
  tcsim_fedp_params(PKG ${name})
  if(NOT "${PKG_${name}}" STREQUAL "${fields}")
    message(FATAL_ERROR "preset ${name}: rtl/tc_pkg.sv gives '${PKG_${name}}', tcsim "
                        "fedp-params '${fields}' (regenerate: tcsim emit-pkg -o rtl/tc_pkg.sv)")
  endif()
endforeach()

# errors: exit 2, the argument named
foreach(case "volta_fp17|unknown preset 'volta_fp17'"
             "x:volta:mma:fp9|x: unknown format 'fp9'"
             "x:volta:mma|x: bad spec 'volta:mma'"
             "x:volta:mma:tf32|x: no profile for volta mma tf32"
             "x:ampere:mma:fp16,tf32|x: profile ampere_mma_tf32_fp32 is not an FEDP step with the parameters")
  string(REPLACE "|" ";" case "${case}")
  list(GET case 0 arg)
  list(GET case 1 want)
  execute_process(COMMAND ${TCSIM} fedp-params ${arg} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(FIND "${err}" "${want}" at)
  if(NOT rc EQUAL 2 OR at LESS 0 OR NOT out STREQUAL "")
    message(FATAL_ERROR "tcsim fedp-params ${arg}: exit ${rc}, stdout '${out}', stderr "
                        "'${err}'; expected exit 2 and '${want}'")
  endif()
endforeach()
message(STATUS "fedp_params_test: ${n} presets agree; errors refused")
