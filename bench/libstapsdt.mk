# bench for libstapsdt: filled in by its component.
