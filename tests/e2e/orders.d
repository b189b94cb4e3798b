/* Probes that pass pointers to structs (tests/e2e/structs.sh): a nested
   struct, arrays, strings, bit-fields, a typedef'd struct and a union. */
provider so {
	probe order(struct order *o, int n);
	probe ticket(ticket_t *t);
	probe value(union value *v, const char *label);
};
