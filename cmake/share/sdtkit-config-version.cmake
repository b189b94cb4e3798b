# find_package(sdtkit VERSION) from <prefix>/share/cmake/sdtkit: the
# version file of the package in its library directory decides.
include("${CMAKE_CURRENT_LIST_DIR}/sdtkit-arch.cmake")
if(_sdtkit_arch_dir)
  include("${_sdtkit_arch_dir}/sdtkit-config-version.cmake")
else()
  set(PACKAGE_VERSION "unknown (${_sdtkit_arch_why})")
  set(PACKAGE_VERSION_UNSUITABLE TRUE)
endif()
unset(_sdtkit_arch_dir)
unset(_sdtkit_arch_why)
