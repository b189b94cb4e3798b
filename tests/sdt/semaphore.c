/*
 * A probe guarded by its semaphore, as dtrace -h headers do it: the
 * program reports the semaphore's value to a status file every few
 * milliseconds, so semaphore-tracefs.sh sees it count up while a tracer is
 * attached and back to 0 after. Runs until the stop file appears.
 */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>
#include <stdio.h>
#include <unistd.h>

/* What dtrace -G would define: the kernel bumps it via ref_ctr_offset. */
unsigned short sem_hit_semaphore __attribute__((section(".probes")));

static void report(const char *path, unsigned value, unsigned long fired)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		return;
	fprintf(f, "%u %lu\n", value, fired);
	if (fclose(f) == 0)
		rename(tmp, path);
}

int main(int argc, char **argv)
{
	unsigned long i, fired = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: semaphore STATUS-FILE STOP-FILE\n");
		return 2;
	}
	for (i = 0; access(argv[2], F_OK) != 0 && i < 100000; i++) {
		unsigned value = *(volatile unsigned short *)&sem_hit_semaphore;

		if (value) {
			STAP_PROBE1(sem, hit, i);
			fired++;
		}
		report(argv[1], value, fired);
		usleep(5000);
	}
	return 0;
}
