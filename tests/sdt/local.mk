# tests/sdt: filled in by its component.
