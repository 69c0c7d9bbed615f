# tcsim_fedp_params(<prefix> <preset>...): the parameter sets of FEDP instances, read
# from the FEDP_<PRESET>_* localparams of rtl/tc_pkg.sv, so that no CMake file restates a
# table value.
#
# One definition: the presets are folded from the model's profile table by
# cli/fedp_params.c, and `tcsim emit-pkg` writes them into tc_pkg.sv (the ctest
# tc_pkg_current fails while the checked-in package is not what it writes now; `tcsim
# fedp-params` prints the same sets for synth/). CMake reads the package rather than
# running tcsim because verilate() takes its -G arguments at configure time, before any
# tcsim is built; the RTL's parameter defaults read the same package, so the build and
# the RTL cannot disagree. Sets in the caller's scope:
#   <prefix>_NAMES    the presets, in order
#   <prefix>_<name>   the list L;F;InFmts;OutFmts;EminAlignFp32;EminAlignFp16;
#                     Fp32ManBits;ScaleFmts;ZeroPlusFp16;InPairs of preset <name>
# A preset the package lacks stops the configuration.
set(TCSIM_FEDP_PARAM_FIELDS L F IN_FMTS OUT_FMTS EMIN_ALIGN_FP32 EMIN_ALIGN_FP16
                            FP32_MAN_BITS SCALE_FMTS ZERO_PLUS_FP16 IN_PAIRS)

function(tcsim_fedp_params prefix)
  set(_pkg ${CMAKE_SOURCE_DIR}/rtl/tc_pkg.sv)
  if(NOT CMAKE_SCRIPT_MODE_FILE)   # (cli/test/fedp_params_test.cmake runs it with -P)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_pkg})
  endif()
  file(STRINGS ${_pkg} _lines REGEX "^  localparam int FEDP_[A-Z0-9_]+ = -?[0-9]+;")
  set(_names "")
  foreach(_name IN LISTS ARGN)
    string(TOUPPER "${_name}" _up)
    set(_values "")
    foreach(_field IN LISTS TCSIM_FEDP_PARAM_FIELDS)
      set(_value "")
      foreach(_line IN LISTS _lines)
        if(_line MATCHES "^  localparam int FEDP_${_up}_${_field} = (-?[0-9]+);")
          set(_value ${CMAKE_MATCH_1})
        endif()
      endforeach()
      if(_value STREQUAL "")
        message(FATAL_ERROR "${CMAKE_CURRENT_SOURCE_DIR}: rtl/tc_pkg.sv has no "
                            "FEDP_${_up}_${_field}: is '${_name}' a preset of `tcsim "
                            "fedp-params --help`, and the package regenerated (tcsim "
                            "emit-pkg -o rtl/tc_pkg.sv)?")
      endif()
      list(APPEND _values ${_value})
    endforeach()
    list(APPEND _names ${_name})
    set(${prefix}_${_name} "${_values}" PARENT_SCOPE)
  endforeach()
  set(${prefix}_NAMES "${_names}" PARENT_SCOPE)
endfunction()
