# samples/cmake: a standalone CMake project (not built by this tree); the
# test tests/packaging/cmake.sh builds it against a staged install.
EXTRA_DIST += \
	samples/cmake/README.md \
	samples/cmake/CMakeLists.txt \
	samples/cmake/app.d \
	samples/cmake/main.c \
	samples/cmake/greet_probes.d \
	samples/cmake/greet.c \
	samples/cmake/greet.h
