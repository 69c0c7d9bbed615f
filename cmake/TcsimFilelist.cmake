# tcsim_read_filelist(<var> <file.f>): the sources an RTL file list names, as absolute
# paths. A list holds one file per line, relative to its own folder; `//` starts a
# comment. rtl/rtl.f is read by Verilator (-F), Yosys and CMake alike, so CMake reads
# it here once rather than each folder parsing it again. A change of the list
# reconfigures.
function(tcsim_read_filelist out list_file)
  get_filename_component(_dir ${list_file} DIRECTORY)
  file(STRINGS ${list_file} _lines)
  set(_files "")
  foreach(_line IN LISTS _lines)
    string(REGEX REPLACE "//.*" "" _line "${_line}")
    string(STRIP "${_line}" _line)
    if(_line)
      list(APPEND _files ${_dir}/${_line})
    endif()
  endforeach()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${list_file})
  set(${out} ${_files} PARENT_SCOPE)
endfunction()
