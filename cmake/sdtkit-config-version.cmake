# find_package(sdtkit VERSION): a request is met by this version when it
# asks for no newer one within the same major version; while the major is
# 0, within the same minor (0.x releases may change interfaces).
# Generated from cmake/sdtkit-config-version.cmake.in at build time.
set(PACKAGE_VERSION "0.1.0")

set(PACKAGE_VERSION_COMPATIBLE FALSE)
set(PACKAGE_VERSION_EXACT FALSE)
if(PACKAGE_FIND_VERSION_RANGE)
  if((PACKAGE_FIND_VERSION_RANGE_MIN STREQUAL "INCLUDE"
      AND PACKAGE_VERSION VERSION_GREATER_EQUAL PACKAGE_FIND_VERSION_MIN)
     AND ((PACKAGE_FIND_VERSION_RANGE_MAX STREQUAL "INCLUDE"
           AND PACKAGE_VERSION VERSION_LESS_EQUAL PACKAGE_FIND_VERSION_MAX)
          OR (PACKAGE_FIND_VERSION_RANGE_MAX STREQUAL "EXCLUDE"
              AND PACKAGE_VERSION VERSION_LESS PACKAGE_FIND_VERSION_MAX)))
    set(PACKAGE_VERSION_COMPATIBLE TRUE)
  endif()
else()
  string(REGEX MATCH "^[0-9]+\\.[0-9]+" _sdtkit_minor "${PACKAGE_VERSION}")
  string(REGEX MATCH "^[0-9]+" _sdtkit_major "${PACKAGE_VERSION}")
  if(_sdtkit_major STREQUAL "0")
    set(_sdtkit_series "${_sdtkit_minor}")
    set(_sdtkit_want "${PACKAGE_FIND_VERSION_MAJOR}.${PACKAGE_FIND_VERSION_MINOR}")
  else()
    set(_sdtkit_series "${_sdtkit_major}")
    set(_sdtkit_want "${PACKAGE_FIND_VERSION_MAJOR}")
  endif()
  if(PACKAGE_VERSION VERSION_GREATER_EQUAL PACKAGE_FIND_VERSION
     AND _sdtkit_want VERSION_EQUAL _sdtkit_series)
    set(PACKAGE_VERSION_COMPATIBLE TRUE)
  endif()
  if(PACKAGE_VERSION VERSION_EQUAL PACKAGE_FIND_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
  unset(_sdtkit_minor)
  unset(_sdtkit_major)
  unset(_sdtkit_series)
  unset(_sdtkit_want)
endif()

# The library and the generator are built for one word size.
if(NOT CMAKE_SIZEOF_VOID_P STREQUAL "" AND NOT CMAKE_SIZEOF_VOID_P STREQUAL "8")
  set(PACKAGE_VERSION "${PACKAGE_VERSION} (8-byte pointers)")
  set(PACKAGE_VERSION_UNSUITABLE TRUE)
endif()
