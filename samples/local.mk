# Samples users copy from; each directory brings its own fragment.
include samples/static/local.mk
include samples/dynamic/local.mk
include samples/autotools/local.mk
include samples/cmake/local.mk
include samples/meson/local.mk
include samples/usdt/local.mk
