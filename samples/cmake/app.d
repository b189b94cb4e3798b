/*
 * The program's probes: app:item fires once per item handled, with its
 * number and name; its arguments are only computed while a tracer is
 * attached (APP_ITEM_ENABLED()). app:done fires at the end.
 */
provider app {
	probe item(long id, const char *name);
	probe done(long count);
};
