/* Written the way PostgreSQL writes its probes.d: argument types are
   names the server's C headers define, spelled out here with #define
   (so dtrace -C is needed) or declared as typedefs, and the arguments
   have no names (tests/e2e/structs.sh). */
#define LocalTransactionId unsigned int
#define bool unsigned char

typedef struct LOCKTAG LOCKTAG;
typedef struct buftag BufferTag;

provider pgish {
	probe transaction__start(LocalTransactionId);
	probe lock__wait__start(LOCKTAG *, bool);
	probe buffer__read__start(BufferTag *, int);
};
