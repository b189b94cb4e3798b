/* Fires tests/e2e/pgish.d's probes with PostgreSQL-like structs of known
   contents and writes what a tracer printing every field should see to
   the file named by argv[1]. */
#include <stdint.h>
#include <stdio.h>

typedef uint32_t Oid;
typedef uint32_t BlockNumber;
typedef enum ForkNumber { MAIN_FORKNUM, FSM_FORKNUM, VM_FORKNUM } ForkNumber;

typedef struct LOCKTAG {
	uint32_t locktag_field1;
	uint32_t locktag_field2;
	uint32_t locktag_field3;
	uint16_t locktag_field4;
	uint8_t locktag_type;
	uint8_t locktag_lockmethodid;
} LOCKTAG;

typedef struct RelFileLocator {
	Oid spcOid;
	Oid dbOid;
	Oid relNumber;
} RelFileLocator;

typedef struct buftag {
	RelFileLocator rlocator;
	ForkNumber forkNum;
	BlockNumber blockNum;
} BufferTag;

#include "pgish.h"

int main(int argc, char **argv)
{
	FILE *out = argc > 1 ? fopen(argv[1], "w") : stdout;
	LOCKTAG tag = { 16384, 2619, 4000000000u, 65535, 4, 1 };
	BufferTag buf = { { 1663, 16384, 2619 }, VM_FORKNUM, 77 };

	if (!out)
		return 1;
	PGISH_TRANSACTION_START(812u);
	PGISH_LOCK_WAIT_START(&tag, 1);
	fprintf(out, "pgish:lock__wait__start arg0: locktag_field1=16384 "
		     "locktag_field2=2619 locktag_field3=4000000000 "
		     "locktag_field4=65535 locktag_type=4 "
		     "locktag_lockmethodid=1\n");
	PGISH_BUFFER_READ_START(&buf, 5);
	fprintf(out, "pgish:buffer__read__start arg0: rlocator.spcOid=1663 "
		     "rlocator.dbOid=16384 rlocator.relNumber=2619 forkNum=2 "
		     "blockNum=77\n");
	return fclose(out) != 0;
}
