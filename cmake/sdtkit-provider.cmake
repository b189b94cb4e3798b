# sdtkit_add_provider(<target> <file.d>... [PREPROCESS])
#
# Gives <target> the probes of each provider file, the way `dtrace -h' and
# `dtrace -G' are used by hand-written builds:
#
# - `dtrace-gen -h' writes <name>.h (named after <name>.d) into
#   ${CMAKE_CURRENT_BINARY_DIR}/sdtkit/<target>/, which goes on the
#   target's (private) include path: `#include "probes.h"'. The header is a
#   source of the target, so every generator makes it before compiling any
#   of the target's files (Ninja's order-only edges, Make's target order),
#   and remakes it when the .d file changes.
#
# - `dtrace-gen -G' runs over the target's own objects
#   ($<TARGET_OBJECTS:target>) as a PRE_LINK step, after they are compiled
#   and before the link, and writes <name>.o (the probes' semaphores) into
#   the same directory; that object is put on the link line (and, for a
#   static library, into the archive). It has to be a link step and not a
#   source: a generated object that depends on the target's own objects
#   would make a cycle with the order in which CMake builds a target's
#   sources. The objects decide the machine and word size of the
#   semaphore object, so -m32 or a cross compiler set on the target is
#   followed. The object holds only data and no relocations, so it links
#   into executables and shared libraries (PIC or not) alike. The target
#   also relinks when a .d file changes.
#
# - The target gets sdtkit::sdt, so the generated header includes our
#   <sys/sdt.h> and not another copy on the system.
#
# PREPROCESS runs the .d file through the C preprocessor (-C), with its
# own directory on the include path: the project's C (else C++) compiler
# with -E, so a cross build's .d file sees the target's predefined macros.
#
# Needs CMake 3.15 (for $<TARGET_OBJECTS> of a non-OBJECT target).
# Limits: call it in the directory that created the target (custom commands
# belong to one directory); only executables and libraries have a link step
# (for an OBJECT library, call it on the target that links its objects);
# two .d files of one target need different names.

function(sdtkit_add_provider target)
  cmake_parse_arguments(PARSE_ARGV 1 _sdt "PREPROCESS" "" "")
  set(_files ${_sdt_UNPARSED_ARGUMENTS})
  if(NOT _files)
    message(FATAL_ERROR "sdtkit_add_provider(${target}): no .d file given")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "sdtkit_add_provider: no target `${target}'")
  endif()
  if(NOT TARGET sdtkit::dtrace-gen OR NOT TARGET sdtkit::sdt)
    message(FATAL_ERROR
      "sdtkit_add_provider(${target}): dtrace-gen or <sys/sdt.h> is not "
      "installed with this sdtkit")
  endif()
  get_target_property(_type ${target} TYPE)
  if(NOT _type MATCHES "^(EXECUTABLE|SHARED_LIBRARY|MODULE_LIBRARY|STATIC_LIBRARY)$")
    message(FATAL_ERROR
      "sdtkit_add_provider(${target}): a ${_type} has no link step to add "
      "the probes' semaphores to; use the executable or library that "
      "links its objects")
  endif()
  get_target_property(_target_dir ${target} SOURCE_DIR)
  if(NOT _target_dir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
    message(FATAL_ERROR
      "sdtkit_add_provider(${target}): call it in ${_target_dir}, "
      "where the target is created")
  endif()

  set(_dir "${CMAKE_CURRENT_BINARY_DIR}/sdtkit/${target}")
  file(MAKE_DIRECTORY "${_dir}")
  set(_seen "")
  foreach(_d IN LISTS _files)
    get_filename_component(_d "${_d}" ABSOLUTE)
    get_filename_component(_name "${_d}" NAME_WE)
    if(_name IN_LIST _seen)
      message(FATAL_ERROR
        "sdtkit_add_provider(${target}): two provider files named "
        "${_name}.d would write the same ${_name}.h")
    endif()
    list(APPEND _seen "${_name}")
    _sdtkit_provider_one(${target} "${_d}" "${_dir}/${_name}" ${_sdt_PREPROCESS})
  endforeach()

  target_include_directories(${target} PRIVATE "${_dir}")
  target_link_libraries(${target} PRIVATE sdtkit::sdt)
endfunction()

# One provider file: its header as a source, its object at link time.
function(_sdtkit_provider_one target file out preprocess)
  set(_dg "$<TARGET_FILE:sdtkit::dtrace-gen>")
  set(_cpp "")
  if(preprocess)
    get_filename_component(_d_dir "${file}" DIRECTORY)
    set(_cpp -C -I "${_d_dir}")
    if(CMAKE_C_COMPILER)
      set(_dg "${CMAKE_COMMAND}" -E env "CPP=${CMAKE_C_COMPILER} -E" ${_dg})
    elseif(CMAKE_CXX_COMPILER)
      set(_dg "${CMAKE_COMMAND}" -E env "CPP=${CMAKE_CXX_COMPILER} -E" ${_dg})
    endif()
  endif()
  get_filename_component(_name "${file}" NAME)

  add_custom_command(OUTPUT "${out}.h"
    COMMAND ${_dg} ${_cpp} -h -s "${file}" -o "${out}.h"
    DEPENDS "${file}"
    COMMENT "dtrace-gen -h ${_name}"
    VERBATIM)
  target_sources(${target} PRIVATE "${out}.h")

  add_custom_command(TARGET ${target} PRE_LINK
    COMMAND ${_dg} ${_cpp} -G -s "${file}" -o "${out}.o"
            "$<TARGET_OBJECTS:${target}>"
    BYPRODUCTS "${out}.o"
    COMMENT "dtrace-gen -G ${_name}"
    COMMAND_EXPAND_LISTS
    VERBATIM)
  get_target_property(_type ${target} TYPE)
  if(_type STREQUAL "STATIC_LIBRARY")
    set_property(TARGET ${target} APPEND PROPERTY STATIC_LIBRARY_OPTIONS "${out}.o")
  else()
    target_link_options(${target} PRIVATE "${out}.o")
  endif()
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${file}")
endfunction()
