# bench for sdt: filled in by its component.
