/*
 * Shapes SystemTap's dtrace takes that a strict reading would refuse: a
 * UTF-8 byte order mark, blanks before `(', no `;' after the last probe
 * of a block or after the block's `}', the line markers of `cpp -x c'
 * (line 0 included) for builds that preprocess first, D pragmas, and no
 * newline at the very end.
 */
# 0 "quirks.d"
# 0 "<built-in>"
# 1 "quirks.d"
provider quirks {
	probe spaced (int a, char *b);
	probe bare ();
	probe last(unsigned int n)
}

provider quirks_more
{
	probe first(void *p);
	probe by_value(struct thing t)
}
#pragma D attributes Evolving/Evolving/Common provider quirks args
#pragma D attributes Private/Private/Unknown provider quirks_more module