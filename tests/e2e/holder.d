provider cx {
	probe holder(Holder *h);
};
