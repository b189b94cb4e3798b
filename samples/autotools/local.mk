# samples/autotools: filled in by dtrace-gen.
