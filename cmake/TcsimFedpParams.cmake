# tcsim_fedp_params(<prefix> <spec>...): the parameter sets of FEDP instances, read from
# the model's profile table by tb/fedp/fedp_gen_params.c (its header gives the spec
# syntax "name:arch:instr:fmt,...[:kind,...]"), so that no CMake file or RTL default
# restates a table value. The generator is built with the model's sources and run now,
# at configure time, because verilate() takes its arguments here; a change of the
# model's sources reconfigures. Sets in the caller's scope:
#   <prefix>_NAMES    the instance names, in order
#   <prefix>_<name>   the list L;F;InFmts;OutFmts;EminAlignFp32;EminAlignFp16;
#                     Fp32ManBits;ScaleFmts of instance <name>
# A table that gives no consistent parameter set stops the configuration with the
# generator's message.
function(tcsim_fedp_params prefix)
  file(GLOB _sources ${CMAKE_SOURCE_DIR}/model/src/*.c
                     ${CMAKE_BINARY_DIR}/model/*.c)   # and the sources model/ generates
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_sources})
  string(MAKE_C_IDENTIFIER "${prefix}" _dir)
  try_run(_run _built ${CMAKE_CURRENT_BINARY_DIR}/fedp_params_${_dir}
    SOURCES ${CMAKE_SOURCE_DIR}/tb/fedp/fedp_gen_params.c ${_sources}
    CMAKE_FLAGS "-DINCLUDE_DIRECTORIES=${CMAKE_SOURCE_DIR}/model/include;${CMAKE_SOURCE_DIR}/model/src"
    LINK_LIBRARIES m
    C_STANDARD 11
    COMPILE_OUTPUT_VARIABLE _log
    RUN_OUTPUT_STDOUT_VARIABLE _out
    RUN_OUTPUT_STDERR_VARIABLE _err
    ARGS ${ARGN})
  if(NOT _built)
    message(FATAL_ERROR "${CMAKE_CURRENT_SOURCE_DIR}: cannot build fedp_gen_params with the model:\n${_log}")
  endif()
  if(NOT _run EQUAL 0)
    message(FATAL_ERROR "${CMAKE_CURRENT_SOURCE_DIR}: the model's profile table gives no parameter set:\n${_err}")
  endif()
  set(_names "")
  string(REGEX MATCHALL "[^\n]+" _lines "${_out}")
  foreach(_line IN LISTS _lines)
    string(REPLACE " " ";" _fields "${_line}")
    list(POP_FRONT _fields _name)
    list(APPEND _names ${_name})
    set(${prefix}_${_name} "${_fields}" PARENT_SCOPE)
  endforeach()
  set(${prefix}_NAMES "${_names}" PARENT_SCOPE)
endfunction()
