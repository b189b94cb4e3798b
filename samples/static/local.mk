# samples/static: filled in by its component.
