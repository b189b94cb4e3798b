# docs/: the design documentation, shipped whole so that a page added to
# docs/ needs no line here.
EXTRA_DIST += docs
