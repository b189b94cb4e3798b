# samples/meson: a standalone meson project (not built by this tree); the
# test tests/packaging/meson.sh builds it against a staged install.
EXTRA_DIST += \
	samples/meson/README.md \
	samples/meson/meson.build \
	samples/meson/probes.d \
	samples/meson/main.c
