# find_package(libstapsdt): the same library as sdtkit's `stapsdt'
# component, for projects that ask for it by its own name. Gives
# libstapsdt::libstapsdt (an alias of sdtkit::stapsdt) and the classic
# libstapsdt_INCLUDE_DIRS / libstapsdt_LIBRARIES variables. It reads the
# sdtkit package installed beside it, never another one found elsewhere.

include("${CMAKE_CURRENT_LIST_DIR}/../sdtkit/sdtkit-config.cmake")

if(TARGET sdtkit::stapsdt)
  if(NOT TARGET libstapsdt::libstapsdt)
    add_library(libstapsdt::libstapsdt INTERFACE IMPORTED)
    set_target_properties(libstapsdt::libstapsdt PROPERTIES
      INTERFACE_LINK_LIBRARIES sdtkit::stapsdt)
  endif()
  get_target_property(libstapsdt_INCLUDE_DIRS sdtkit::stapsdt
    INTERFACE_INCLUDE_DIRECTORIES)
  set(libstapsdt_LIBRARIES libstapsdt::libstapsdt)
else()
  set(libstapsdt_FOUND FALSE)
  set(libstapsdt_NOT_FOUND_MESSAGE
    "libstapsdt.so or libstapsdt.h is missing beside ${CMAKE_CURRENT_LIST_DIR}")
endif()
