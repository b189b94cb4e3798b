# bench for sdt-list: filled in by its component.
