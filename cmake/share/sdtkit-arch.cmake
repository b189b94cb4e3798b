# Included by the two files beside it, which CMake finds in
# <prefix>/share/cmake/sdtkit: the package itself lives in a library
# directory, lib/<multiarch>/cmake/sdtkit on Debian, which CMake searches
# only once the project has enabled a language (`project(x NONE)' has
# none, so CMAKE_LIBRARY_ARCHITECTURE is unset). This file finds it and
# sets _sdtkit_arch_dir, or _sdtkit_arch_why when it cannot. The same
# text serves every architecture, so packages of several can install it.
get_filename_component(_sdtkit_share_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(CMAKE_LIBRARY_ARCHITECTURE)
  set(_sdtkit_arch_dirs
    "${_sdtkit_share_prefix}/lib/${CMAKE_LIBRARY_ARCHITECTURE}/cmake/sdtkit")
else()
  file(GLOB _sdtkit_arch_dirs
    "${_sdtkit_share_prefix}/lib*/cmake/sdtkit"
    "${_sdtkit_share_prefix}/lib/*/cmake/sdtkit")
endif()
set(_sdtkit_arch_dir "")
set(_sdtkit_arch_why "")
set(_sdtkit_arch_found "")
foreach(_sdtkit_d IN LISTS _sdtkit_arch_dirs)
  if(EXISTS "${_sdtkit_d}/sdtkit-config.cmake")
    list(APPEND _sdtkit_arch_found "${_sdtkit_d}")
  endif()
endforeach()
list(LENGTH _sdtkit_arch_found _sdtkit_n)
if(_sdtkit_n EQUAL 1)
  set(_sdtkit_arch_dir "${_sdtkit_arch_found}")
elseif(_sdtkit_n EQUAL 0)
  set(_sdtkit_arch_why
    "no sdtkit-config.cmake in a library directory under ${_sdtkit_share_prefix}")
  if(CMAKE_LIBRARY_ARCHITECTURE)
    string(APPEND _sdtkit_arch_why " for ${CMAKE_LIBRARY_ARCHITECTURE}")
  endif()
else()
  string(REPLACE ";" ", " _sdtkit_arch_found "${_sdtkit_arch_found}")
  set(_sdtkit_arch_why
    "sdtkit is installed for several architectures (${_sdtkit_arch_found}): "
    "enable a language in project() so that CMake knows which")
  string(CONCAT _sdtkit_arch_why ${_sdtkit_arch_why})
endif()
unset(_sdtkit_d)
unset(_sdtkit_n)
unset(_sdtkit_arch_dirs)
unset(_sdtkit_arch_found)
unset(_sdtkit_share_prefix)
