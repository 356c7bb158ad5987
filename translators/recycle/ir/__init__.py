"""The translator's intermediate representation: the game as stages, choices and straight-line
blocks of effects, lowered from the tree, and the effects grouped into GDL steps."""
