# sdtkit_add_provider(<target> <file.d>... [PREPROCESS] [HEADER <name.h>]
#                     [CHECK])
#
# Gives <target> the probes of each provider file, the way `dtrace -h' and
# `dtrace -G' are used by hand-written builds:
#
# - `dtrace-gen -h' writes <name>.h (named after <name>.d, or as HEADER
#   says when one file is given) into ${CMAKE_BINARY_DIR}/sdtkit/<target>/,
#   which goes on the target's (private) include path:
#   `#include "probes.h"'. The header is written when CMake configures the
#   project, and again whenever the .d file changes (the .d file is a
#   configure dependency): so it exists before any generator compiles the
#   target, and no build rule has an output under a directory whose name
#   CMake refuses in one (`#'). It is rewritten only when its text changes.
#
# - `dtrace-gen -G' runs over the target's own objects
#   ($<TARGET_OBJECTS:target>) as a PRE_LINK step, after they are compiled
#   and before the link, and writes the probes' semaphores into an object
#   in the same directory; that object is put on the link line (and, for a
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
# Names: every command is given its arguments as a list (VERBATIM), never
# through a shell string, so a project in a directory named `v$HOME',
# `it's', `a b', `#1' or `x$(touch PWNED)y' builds as it would without
# sdtkit, and runs nothing its name spells. The one exception is the link
# option naming the semaphore object, which CMake passes on unescaped: it
# is written relative to the directory the link runs in (the build's top
# for Ninja, the target's directory for Makefiles), so it only holds the
# target's name (CMake allows no special characters there) and a file name
# made an identifier.
#
# PREPROCESS runs the .d file through the C preprocessor (-C), with its
# own directory on the include path: the project's C (else C++) compiler
# with -E, quoted for dtrace-gen's shell-like split of $CPP, so a cross
# build's .d file sees the target's predefined macros.
#
# CHECK adds a test (`make test', ctest) per provider file:
# `sdt-list --against <file.d>' over the built target and its objects, which
# fails when a probe the .d declares is missing from the build (compiled
# out by an #ifdef, dropped by --gc-sections or LTO) or has other argument
# counts or types, and names each such probe and why. The project must
# call enable_testing() (or include(CTest)) for tests to run.
#
# Debug information: dtrace -G reads the layout of each struct a probe
# argument points at from the DWARF of the target's objects. Where the
# flags of a language and configuration hold no -g at all (CMake's default
# empty build type, Release, MinSizeRel), the target's C and C++ sources
# are compiled with -g: it adds debug sections and changes no code, so the
# probes get their layouts in every build type. A project that wants no
# debug information says so with any -g option of its own (-g0 in
# CMAKE_C_FLAGS, or target_compile_options(app PRIVATE -g0)); that one is
# kept, and dtrace -G then warns for each struct argument without a
# layout.
#
# Needs CMake 3.15 (for $<TARGET_OBJECTS> of a non-OBJECT target).
# Limits: call it in the directory that created the target (custom commands
# belong to one directory); only executables and libraries have a link step
# (for an OBJECT library, call it on the target that links its objects);
# two .d files of one target need different names; the .d file must exist
# when CMake configures (it cannot be a build step's output).

function(sdtkit_add_provider target)
  cmake_parse_arguments(PARSE_ARGV 1 _sdt "PREPROCESS;CHECK" "HEADER" "")
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
  list(LENGTH _files _count)
  if(DEFINED _sdt_HEADER)
    if(NOT _count EQUAL 1)
      message(FATAL_ERROR
        "sdtkit_add_provider(${target}): HEADER names the header of one "
        ".d file; call it once per file")
    endif()
    if(_sdt_HEADER STREQUAL "" OR IS_ABSOLUTE "${_sdt_HEADER}"
       OR _sdt_HEADER MATCHES "(^|/)\\.\\.(/|$)")
      message(FATAL_ERROR
        "sdtkit_add_provider(${target}): HEADER `${_sdt_HEADER}' must be a "
        "relative path such as probes.h or myapp/probes.h")
    endif()
  endif()

  set(_dir "${CMAKE_BINARY_DIR}/sdtkit/${target}")
  file(MAKE_DIRECTORY "${_dir}")
  # The link runs in the build's top directory (Ninja) or the target's
  # (Makefiles): the semaphore object is named from there.
  if(CMAKE_GENERATOR MATCHES "Ninja")
    set(_link_dir "${CMAKE_BINARY_DIR}")
  elseif(CMAKE_GENERATOR MATCHES "Makefiles")
    set(_link_dir "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    set(_link_dir "")
  endif()
  get_property(_seen TARGET ${target} PROPERTY _SDTKIT_HEADERS)
  get_property(_objs TARGET ${target} PROPERTY _SDTKIT_OBJECTS)
  foreach(_d IN LISTS _files)
    get_filename_component(_d "${_d}" ABSOLUTE)
    get_filename_component(_name "${_d}" NAME_WE)
    set(_h "${_name}.h")
    if(DEFINED _sdt_HEADER)
      set(_h "${_sdt_HEADER}")
    endif()
    if(_h IN_LIST _seen)
      message(FATAL_ERROR
        "sdtkit_add_provider(${target}): two provider files would write "
        "the same ${_h}; name one with HEADER")
    endif()
    list(APPEND _seen "${_h}")
    string(MAKE_C_IDENTIFIER "${_name}" _base)
    set(_o "${_base}.o")
    set(_n 1)
    while(_o IN_LIST _objs)
      math(EXPR _n "${_n} + 1")
      set(_o "${_base}_${_n}.o")
    endwhile()
    list(APPEND _objs "${_o}")
    _sdtkit_provider_one(${target} "${_d}" "${_dir}/${_h}" "${_dir}/${_o}"
      "${_link_dir}" "${_sdt_PREPROCESS}")
    if(_sdt_CHECK)
      _sdtkit_provider_check(${target} "${_d}" "${_name}"
        "${_sdt_PREPROCESS}")
    endif()
  endforeach()
  set_property(TARGET ${target} PROPERTY _SDTKIT_HEADERS "${_seen}")
  set_property(TARGET ${target} PROPERTY _SDTKIT_OBJECTS "${_objs}")

  target_include_directories(${target} PRIVATE "${_dir}")
  target_link_libraries(${target} PRIVATE sdtkit::sdt)
  _sdtkit_debug_info(${target})
endfunction()

# -g for the target's C and C++ objects in each configuration whose flags
# have no -g option (see Debug information above), as set when this runs.
function(_sdtkit_debug_info target)
  set(_g "(^|[ ;])-g")
  get_target_property(_own ${target} COMPILE_OPTIONS)
  get_directory_property(_dir_own COMPILE_OPTIONS)
  if("${_own};${_dir_own}" MATCHES "${_g}")
    return()
  endif()
  get_property(_multi GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(_multi)
    set(_configs ${CMAKE_CONFIGURATION_TYPES})
  else()
    # One configuration, whose name may be empty (a list of none).
    set(_configs "=${CMAKE_BUILD_TYPE}")
  endif()
  set(_add "")
  foreach(_lang C CXX)
    foreach(_config IN LISTS _configs)
      string(REGEX REPLACE "^=" "" _config "${_config}")
      string(TOUPPER "${_config}" _up)
      set(_flags "${CMAKE_${_lang}_FLAGS}")
      if(_up)
        string(APPEND _flags " ${CMAKE_${_lang}_FLAGS_${_up}}")
      endif()
      if(_flags MATCHES "${_g}")
        continue()
      endif()
      if(_multi)
        list(APPEND _add
          "$<$<AND:$<COMPILE_LANGUAGE:${_lang}>,$<CONFIG:${_config}>>:-g>")
      else()
        list(APPEND _add "$<$<COMPILE_LANGUAGE:${_lang}>:-g>")
      endif()
    endforeach()
  endforeach()
  if(_add)
    target_compile_options(${target} PRIVATE ${_add})
  endif()
endfunction()

# CHECK: sdt-list --against FILE over the target (an archive is not read:
# a static library is checked through its objects) and its objects.
function(_sdtkit_provider_check target file name preprocess)
  if(NOT TARGET sdtkit::sdt-list)
    message(FATAL_ERROR
      "sdtkit_add_provider(${target} CHECK): sdt-list is not installed "
      "with this sdtkit")
  endif()
  get_target_property(_type ${target} TYPE)
  set(_built "$<TARGET_FILE:${target}>")
  if(_type STREQUAL "STATIC_LIBRARY")
    set(_built "")
  endif()
  get_target_property(_sl sdtkit::sdt-list IMPORTED_LOCATION)
  _sdtkit_cpp_command("${_sl}" "${file}" preprocess)
  # Test names are not quoted in CTestTestfile.cmake before CMake 3.19
  # (policy CMP0110): only identifier characters reach it.
  string(MAKE_C_IDENTIFIER "sdtkit-probes-${target}-${name}" _test)
  add_test(NAME "${_test}"
    COMMAND ${_run} --against ${_cpp} "${file}" ${_built}
            "$<TARGET_OBJECTS:${target}>"
    COMMAND_EXPAND_LISTS)
endfunction()

# `s', quoted for dtrace-gen's split of $CPP (as a POSIX shell would).
function(_sdtkit_shell_quote out s)
  string(REPLACE "'" "'\\''" s "${s}")
  set(${out} "'${s}'" PARENT_SCOPE)
endfunction()

# How to run TOOL (a path) over FILE: `_run' is the command (TOOL, or
# TOOL under `cmake -E env CPP=...' to preprocess), `_cpp' the options
# that read FILE through the C preprocessor, both for the caller's scope.
macro(_sdtkit_cpp_command tool file preprocess)
  set(_run "${tool}")
  set(_cpp "")
  if(${preprocess})
    get_filename_component(_d_dir "${file}" DIRECTORY)
    set(_cpp -C -I "${_d_dir}")
    set(_cc "")
    if(CMAKE_C_COMPILER)
      set(_cc "${CMAKE_C_COMPILER}")
      set(_cc_arg1 "${CMAKE_C_COMPILER_ARG1}")
    elseif(CMAKE_CXX_COMPILER)
      set(_cc "${CMAKE_CXX_COMPILER}")
      set(_cc_arg1 "${CMAKE_CXX_COMPILER_ARG1}")
    endif()
    if(_cc)
      _sdtkit_shell_quote(_cc "${_cc}")
      set(_run "${CMAKE_COMMAND}" -E env "CPP=${_cc} ${_cc_arg1} -E" "${tool}")
    endif()
  endif()
endmacro()

# One provider file: its header now, its object at link time.
function(_sdtkit_provider_one target file header object link_dir preprocess)
  get_target_property(_dg sdtkit::dtrace-gen IMPORTED_LOCATION)
  _sdtkit_cpp_command("${_dg}" "${file}" preprocess)
  get_filename_component(_name "${file}" NAME)

  # The header: written to a side file, copied only when it changed, so
  # a reconfigure does not recompile the target for nothing.
  get_filename_component(_hdir "${header}" DIRECTORY)
  file(MAKE_DIRECTORY "${_hdir}")
  set(_cmd ${_run} ${_cpp} -h -s "${file}" -o "${header}.new")
  string(REPLACE ";" " " _shown "${_cmd}")
  message(VERBOSE "sdtkit: ${_shown}")
  execute_process(COMMAND ${_cmd}
    RESULT_VARIABLE _rc ERROR_VARIABLE _err OUTPUT_VARIABLE _out)
  if(NOT _rc EQUAL 0)
    file(REMOVE "${header}.new")
    message(FATAL_ERROR
      "sdtkit_add_provider(${target}): dtrace-gen -h ${_name} failed "
      "(${_rc}):\n${_out}${_err}")
  endif()
  if(_err)
    message(WARNING "dtrace-gen -h ${_name}:\n${_err}")
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" -E copy_if_different
    "${header}.new" "${header}" RESULT_VARIABLE _rc)
  file(REMOVE "${header}.new")
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "sdtkit_add_provider(${target}): cannot write ${header}")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${file}")

  add_custom_command(TARGET ${target} PRE_LINK
    COMMAND ${_run} ${_cpp} -G -s "${file}" -o "${object}"
            "$<TARGET_OBJECTS:${target}>"
    COMMENT "dtrace-gen -G ${_name}"
    COMMAND_EXPAND_LISTS
    VERBATIM)
  set_property(TARGET ${target} APPEND PROPERTY ADDITIONAL_CLEAN_FILES "${object}")
  set(_arg "${object}")
  if(link_dir)
    file(RELATIVE_PATH _arg "${link_dir}" "${object}")
  endif()
  get_target_property(_type ${target} TYPE)
  if(_type STREQUAL "STATIC_LIBRARY")
    set_property(TARGET ${target} APPEND PROPERTY STATIC_LIBRARY_OPTIONS "${_arg}")
  else()
    target_link_options(${target} PRIVATE "${_arg}")
  endif()
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${file}")
endfunction()
