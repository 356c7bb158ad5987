"""A GDL-II general game player and game host.

Subpackages: :mod:`ggp.gdl` (the rules language), :mod:`ggp.reasoner` (legal moves, successor
states, percepts, terminal states and goals), and the command line in :mod:`ggp.cli`.
"""

__version__ = "0.1.0"
