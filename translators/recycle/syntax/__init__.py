"""The RECYCLE language as text and tree: the grammar, the parser and its typed syntax tree, the
printer, syntax errors in plain words."""
