provider glib {
	probe mem__alloc(void*, unsigned int, unsigned int, unsigned int);
	probe mem__free(void*);
	probe mem__realloc(void*, void *, unsigned int, int);
	probe slice__alloc(void*, unsigned int);
	probe slice__free(void*, unsigned int);
	probe quark__new(const char *, unsigned int);
	probe main__after_prepare(void*, int, unsigned int);
	probe main__after_check(void*, unsigned int, int, unsigned int);
	probe main__source_dispatch(void*, void*, const char *, void*, void*, void*);
	probe main__add(unsigned int, void*, void*);
	probe timeout__add(void*, void*, void*, void*, unsigned int);
	probe idle__dispatch(void*, void*, void*, void*, int);
	probe thread__spawned(void*, void*, char*);
};
provider gobject {
	probe type__new(char *, unsigned long, unsigned long);
	probe object__new(void*, unsigned long);
	probe object__ref(void*, unsigned long, unsigned int);
	probe object__unref(void*, unsigned long, unsigned int);
	probe object__dispose(void*, unsigned long, unsigned int);
	probe signal__new(unsigned int, char *, unsigned long);
	probe signal__emit(unsigned int, unsigned int, void *, unsigned long);
	probe signal__emit_end(unsigned int, unsigned int, void *, unsigned long);
};
