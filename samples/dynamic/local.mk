# samples/dynamic: filled in by its component.
