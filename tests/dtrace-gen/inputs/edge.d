// Shapes real files have that simple parsers trip on.
#pragma ident "edge cases"

/* A comment mentioning provider fake { probe no(); }; is not a provider. */
struct thing { int provider; char *probe; };
typedef unsigned long long int my_u64;

provider edge {
	/* multi-word types, named and unnamed */
	probe words(unsigned long long int a, long double, signed char c,
		    const volatile unsigned short int *p);
	probe pointers(char **argv, const char * const *envp, void *);
	probe fnptr(int (*callback)(void *, int), void (*)(void));
	probe arrays(char buf[16], int m[2][3]);
	probe structs(struct thing *t, union u *x, enum e y);
	probe strings(string s, string t);
	probe no_args();
	probe void_args(void);
	probe underscores__in__name(int);
	probe x___triple(int);
	probe MixedCase(int) ;
	probe twelve(int, int, int, int, int, int, int, int, int, int, int,
		     int);
	probe
	spread
	(
		int
		a
	)
	;
};

provider empty {
};

provider second { probe words(int); } ;

/* Trailing D, after the last provider: a clause. */
syscall::open:entry
/execname == "provider"/
{
	@opens[copyinstr(arg0)] = count();
}
