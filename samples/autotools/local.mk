# samples/autotools: a standalone project (not built by this tree); the
# test tests/dtrace-gen/sample.sh configures and builds it in a scratch dir.
EXTRA_DIST += \
	samples/autotools/README \
	samples/autotools/configure.ac \
	samples/autotools/Makefile.am \
	samples/autotools/probes.d \
	samples/autotools/main.c
