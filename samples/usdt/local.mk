# samples/usdt: one C file with <usdt.h> probes and an implicit semaphore
# (no .d file, no dtrace -G), built by make check.
check_PROGRAMS += samples/usdt/jobs
samples_usdt_jobs_SOURCES = samples/usdt/jobs.c
EXTRA_DIST += samples/usdt/README.md
