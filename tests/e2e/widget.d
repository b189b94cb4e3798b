/* A C++ class passed by pointer: a base class, a vtable pointer and a
   static member around the fields (tests/e2e/structs.sh). */
provider cx {
	probe hit(Widget *w, int n);
};
