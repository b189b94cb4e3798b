/*
 * Every shape of argument the typed-probe records keep: strings, integers
 * of each size and sign, pointers to structs, typedefs declared here, a
 * type the preprocessor makes (run with -C), unnamed arguments, pointers
 * to pointers and to functions, and spacing to normalize.
 */
#define txn_id_t unsigned int
#define QUERY_TEXT const char *

typedef unsigned long long conn_id_t;
typedef struct conn conn_t;
struct conn;

provider typed {
	probe query__start(QUERY_TEXT query, struct conn *conn);
	probe ints(signed char a, unsigned char b, short c, unsigned short d,
		   int e, unsigned int f, long g, unsigned long h,
		   long long i, unsigned long long j);
	probe fixed(int8_t a, uint8_t b, int16_t c, uint16_t d, int32_t e,
		    uint32_t f, int64_t g, uint64_t h, uintptr_t p, size_t n);
	probe txn(txn_id_t xid, conn_id_t id, conn_t *c);
	probe unnamed(const char *, struct conn *, conn_id_t, unsigned);
	probe spaced(const   char*const*argv , char * * env);
	probe callback(int (*cb)(void *, int), void *arg);
	probe none();
	probe nothing(void);
	probe translated(conn_t *c) : (conninfo_t *ci);
};
