"""Writing the GDL-II rules: plain functions per construct over the IR and the analyses."""
