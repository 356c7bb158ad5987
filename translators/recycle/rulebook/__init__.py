"""The rules as they are written: commented groups, and the passes over the finished rules."""
