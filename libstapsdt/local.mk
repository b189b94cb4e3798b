# libstapsdt: filled in by its component.
