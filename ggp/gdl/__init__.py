"""The GDL and GDL-II language: terms, rules, parsing (KIF and infix), printing, validation."""

from ggp.gdl.kif import parse_kif, parse_term, read_kif
from ggp.gdl.rules import RANDOM, Distinct, GameDescription, Literal, Not, Or, Rule
from ggp.gdl.terms import Constant, Function, Term, Variable

__all__ = [
    "RANDOM", "Constant", "Distinct", "Function", "GameDescription", "Literal", "Not", "Or",
    "Rule", "Term", "Variable", "parse_kif", "parse_term", "read_kif",
]
