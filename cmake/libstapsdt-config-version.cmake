# find_package(libstapsdt VERSION): versions follow sdtkit's.
include("${CMAKE_CURRENT_LIST_DIR}/../sdtkit/sdtkit-config-version.cmake")
