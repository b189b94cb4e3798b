# samples/static: a small program with static probes (built by make check,
# traced by make demo).
check_PROGRAMS += samples/static/server
samples_static_server_SOURCES = samples/static/server.c samples/static/stats.c
EXTRA_DIST += samples/static/README.md samples/static/demo.sh
