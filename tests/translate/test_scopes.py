"""Variables read in the scope they were bound in."""

from __future__ import annotations

from ggp.gdl.terms import Term
from tests.conftest import RULESHEETS
from translators.recycle import parse_recycle_file
from translators.recycle.emit.contexts import Ctl
from translators.recycle.ir.nodes import Alias, Env, Fixed
from translators.recycle.symbols.vocabulary import name
from translators.recycle.syntax.nodes import CardLocation, GameOwner, Var
from translators.recycle.translate import analysed

KUHN = RULESHEETS / "kuhn.rcy"


def test_a_location_name_through_an_alias_is_read_where_the_alias_was_made() -> None:
    """``'N`` stands for ``'X`` as bound when ``'N`` was made (STOCK), not for the ``'X`` that
    shadows it where the location is read (OTHER)."""
    comp, _ = analysed(parse_recycle_file(KUHN))
    outer = Env().bind("X", Fixed(name("STOCK"), "str"))
    inner = outer.bind("N", Alias(Var("X"), outer)).bind("X", Fixed(name("OTHER"), "str"))
    location = CardLocation(GameOwner(), "iloc", Var("N"))
    assert comp.loc_term(location, inner, Ctl()) == ([], Term.parse("(loc game iloc stock)"))
