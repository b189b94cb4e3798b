# dtrace-gen: filled in by its component.
