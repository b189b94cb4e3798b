# find_package(sdtkit) from <prefix>/share/cmake/sdtkit: loads the package
# from its library directory (see sdtkit-arch.cmake).
include("${CMAKE_CURRENT_LIST_DIR}/sdtkit-arch.cmake")
if(_sdtkit_arch_dir)
  include("${_sdtkit_arch_dir}/sdtkit-config.cmake")
else()
  set(sdtkit_FOUND FALSE)
  set(sdtkit_NOT_FOUND_MESSAGE "${_sdtkit_arch_why}")
endif()
unset(_sdtkit_arch_dir)
unset(_sdtkit_arch_why)
