# sdtkit's CMake package: find_package(sdtkit [VERSION] [COMPONENTS ...])
#
# Gives
#   sdtkit::sdt         INTERFACE target: our <sys/sdt.h> on the include path,
#                       ahead of the system's (SystemTap's) copy.
#   sdtkit::stapsdt     the runtime-probe library libstapsdt (component
#                       `stapsdt'; defined when the library is installed).
#   sdtkit::dtrace-gen  the generator, as an imported executable (component
#                       `dtrace'); SDTKIT_DTRACE_EXECUTABLE is its path.
#   sdtkit_add_provider(<target> <file.d>... [PREPROCESS]): see
#                       sdtkit-provider.cmake beside this file.
#   SDTKIT_INCLUDE_DIR  the directory holding sys/sdt.h.
#
# The paths below are where `make install' put things. When this file is
# found somewhere else (a DESTDIR stage, a prefix copied or moved as a
# whole), every path under the installed prefix moves with it, so a staged
# tree can be used before it is installed.
#
# This file is generated from cmake/sdtkit-config.cmake.in at build time.

# sdtkit_add_provider() runs dtrace -G over $<TARGET_OBJECTS> of
# executables and libraries, which CMake allows from 3.15 on.
if(CMAKE_VERSION VERSION_LESS 3.15)
  set(sdtkit_FOUND FALSE)
  set(sdtkit_NOT_FOUND_MESSAGE "sdtkit's CMake package needs CMake 3.15 or newer")
  return()
endif()
cmake_policy(PUSH)
cmake_policy(VERSION 3.15...3.28)

set(_sdtkit_installed_prefix "/usr/local")
set(_sdtkit_installed_here "/usr/local/lib/cmake/sdtkit")

# The prefix this file was really found under: its installed directory's
# path below the prefix, stripped from where it is now.
set(_sdtkit_prefix "${_sdtkit_installed_prefix}")
file(RELATIVE_PATH _sdtkit_rel "${_sdtkit_installed_prefix}" "${_sdtkit_installed_here}")
if(NOT _sdtkit_rel MATCHES "^\\.\\./")
  string(REGEX REPLACE "[^/]+" ".." _sdtkit_rel_up "${_sdtkit_rel}")
  get_filename_component(_sdtkit_prefix "${CMAKE_CURRENT_LIST_DIR}/${_sdtkit_rel_up}" ABSOLUTE)
endif()

# An installed path, moved under the prefix this file was found in.
function(_sdtkit_path out installed)
  string(LENGTH "${_sdtkit_installed_prefix}/" _len)
  string(SUBSTRING "${installed}/" 0 ${_len} _head)
  if(_head STREQUAL "${_sdtkit_installed_prefix}/")
    string(SUBSTRING "${installed}" ${_len} -1 _tail)
    set(${out} "${_sdtkit_prefix}/${_tail}" PARENT_SCOPE)
  else()
    set(${out} "${installed}" PARENT_SCOPE)
  endif()
endfunction()

_sdtkit_path(SDTKIT_INCLUDE_DIR "/usr/local/include")
_sdtkit_path(SDTKIT_DTRACE_EXECUTABLE "/usr/local/bin/dtrace-gen")
_sdtkit_path(_sdtkit_libstapsdt_includedir "/usr/local/include")
_sdtkit_path(_sdtkit_libstapsdt "/usr/local/lib/libstapsdt.so")

set(sdtkit_sdt_FOUND FALSE)
if(EXISTS "${SDTKIT_INCLUDE_DIR}/sys/sdt.h")
  set(sdtkit_sdt_FOUND TRUE)
  if(NOT TARGET sdtkit::sdt)
    add_library(sdtkit::sdt INTERFACE IMPORTED)
    set_target_properties(sdtkit::sdt PROPERTIES
      INTERFACE_INCLUDE_DIRECTORIES "${SDTKIT_INCLUDE_DIR}")
  endif()
endif()

set(sdtkit_dtrace_FOUND FALSE)
if(EXISTS "${SDTKIT_DTRACE_EXECUTABLE}")
  set(sdtkit_dtrace_FOUND TRUE)
  if(NOT TARGET sdtkit::dtrace-gen)
    add_executable(sdtkit::dtrace-gen IMPORTED)
    set_target_properties(sdtkit::dtrace-gen PROPERTIES
      IMPORTED_LOCATION "${SDTKIT_DTRACE_EXECUTABLE}")
  endif()
endif()

set(sdtkit_stapsdt_FOUND FALSE)
if(EXISTS "${_sdtkit_libstapsdt}"
   AND EXISTS "${_sdtkit_libstapsdt_includedir}/libstapsdt.h")
  set(sdtkit_stapsdt_FOUND TRUE)
  if(NOT TARGET sdtkit::stapsdt)
    add_library(sdtkit::stapsdt SHARED IMPORTED)
    set_target_properties(sdtkit::stapsdt PROPERTIES
      IMPORTED_LOCATION "${_sdtkit_libstapsdt}"
      IMPORTED_SONAME "libstapsdt.so.0"
      INTERFACE_INCLUDE_DIRECTORIES "${_sdtkit_libstapsdt_includedir}")
  endif()
endif()

# Without components, the header and the generator are what a caller of
# sdtkit_add_provider needs; the library is asked for by name.
if(NOT sdtkit_FIND_COMPONENTS)
  set(sdtkit_FIND_COMPONENTS sdt dtrace)
  set(sdtkit_FIND_REQUIRED_sdt TRUE)
  set(sdtkit_FIND_REQUIRED_dtrace TRUE)
endif()
foreach(_sdtkit_comp IN LISTS sdtkit_FIND_COMPONENTS)
  if(NOT DEFINED sdtkit_${_sdtkit_comp}_FOUND)
    set(sdtkit_FOUND FALSE)
    set(sdtkit_NOT_FOUND_MESSAGE
      "unknown component `${_sdtkit_comp}' (known: sdt, dtrace, stapsdt)")
  elseif(NOT sdtkit_${_sdtkit_comp}_FOUND AND sdtkit_FIND_REQUIRED_${_sdtkit_comp})
    set(sdtkit_FOUND FALSE)
    set(sdtkit_NOT_FOUND_MESSAGE
      "component `${_sdtkit_comp}' is not installed under ${_sdtkit_prefix}")
  endif()
endforeach()

include("${CMAKE_CURRENT_LIST_DIR}/sdtkit-provider.cmake")

unset(_sdtkit_comp)
unset(_sdtkit_rel)
unset(_sdtkit_rel_up)

cmake_policy(POP)
