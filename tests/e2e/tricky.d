provider ct {
	probe tricky(struct tricky *t);
};
