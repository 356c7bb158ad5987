"""The typed tree: every construct of the grammar gets its node class, kinds and positions."""

from __future__ import annotations

import inspect

import pytest

from tests.conftest import RULESHEETS
from tests.recycle.support import CORPUS, parsed, small_game
from tests.recycle.test_seed import SEED_AGRAM, SNIPPETS
from translators.recycle import (
    outline,
    parse_fragment,
    parse_recycle,
    parse_recycle_file,
    print_recycle,
)
from translators.recycle.syntax import nodes
from translators.recycle.syntax.nodes import (
    Arith,
    CardAt,
    CardLocation,
    CardsAgg,
    Compare,
    CreateDeck,
    Cycle,
    Deck,
    Filter,
    IntLit,
    Name,
    NewName,
    Node,
    Partition,
    Random,
    Range,
    SetOp,
    Slice,
    TeamSpec,
    Var,
)
from translators.recycle.syntax.parser import FragmentKind
from translators.recycle.syntax.kinds import kind_of

# v0.5.10 forms that neither the corpus nor the 0.5 document use.
FEATURES: list[tuple[FragmentKind, str]] = [
    ("int", "(tri 4)"), ("int", "(fib 6)"), ("int", "(^ 2 5)"), ("int", "(% 7 3)"),
    ("int", "(random 5)"), ("int", "(random 1..6)"), ("int", "(random (game sto A) .. (+ 1 2))"),
    ("collection", "(range 1..8)"), ("collection", "(game oloc HAND)"),
    ("collection", "(game vloc new)"), ("collection", "(game vloc 3)"),
    ("collection", "(intersect (game vloc A) (game vloc B))"),
    ("collection", "(disjunction (all player 'P ('P vloc A)))"),
    ("collection", "(sort (game vloc A) using (game points P))"),
    ("collection", "(top 2 (game vloc A))"), ("collection", "(bottom 'N (game vloc A))"),
    ("collection", "(run top 3 (game vloc A) using (game points P))"),
    ("collection", "(runs all 3 (game vloc A) using (game points P))"),
    ("collection", "(runs largest 3 (game vloc A) using ((current player) points P))"),
    ("collection", "(subsets (game vloc A))"),
    ("collection", "(partition SUIT (game vloc A) (game vloc B))"),
    ("collection", "(partition SUIT (all player 'P ('P vloc A)))"),
    ("collection", "(2 (partition SUIT (game vloc A)))"),
    ("item", "(shuffle faro (game vloc A) (game vloc B))"),
    ("item", "(set ((team (current player)) str BID) PASS)"),
    ("item", "(cycle next 'P)"), ("item", "(cycle current (owner (top (game vloc A))))"),
    ("owner", "(team 'P)"), ("owner", "(2 team)"), ("owner", "((game sto N) player)"),
    ("item", "(create deck SOURCE (game iloc STOCK) (deck (RANK (A, B))))"),
    ("item", "(create teams (0, 1 (2)) (3))"),
    ("item", "(repeat all (forget (top (game mem A))))"),
    ("flow", "(let (game vloc A) 'L (choice ((move (top 'L) (top (game vloc B))))))"),
    ("value", "(all player 'P (== ('P sto A) 1))"),
    ("value", "(all player 'P ('P vloc A))"),
    ("value", "(all player 'P ('P sto A))"),
    ("card", "(actual (min (game vloc A) using (game points P)))"),
    ("item", "(set (game points P) (((RANK : ('P str R)) (SUIT : 'S) (+ 1 2))))"),
]


def all_node_classes() -> set[type]:
    return {cls for _, cls in inspect.getmembers(nodes, inspect.isclass)
            if issubclass(cls, Node) and cls is not Node}


def test_every_node_class_is_built_from_some_input() -> None:
    seen: set[type] = set()
    for kind, text in SNIPPETS + FEATURES:
        seen.update(type(n) for n in parse_fragment(text, kind).walk())
    games = [parse_recycle(SEED_AGRAM)] + [parse_recycle_file(p) for p in sorted(RULESHEETS.glob("*.rcy"))]
    games += [parsed(p) for p in CORPUS]
    for game in games:
        seen.update(type(n) for n in game.walk())
    assert all_node_classes() - seen == set()


@pytest.mark.parametrize("kind,text", FEATURES, ids=[t[:40] for _, t in FEATURES])
def test_feature_parses_and_prints_back(kind: FragmentKind, text: str) -> None:
    node = parse_fragment(text, kind)
    assert parse_fragment(print_recycle(node), kind) == node


def test_nodes_of_features() -> None:
    assert parse_fragment("(random 5)", "int") == Random(None, IntLit(5))
    assert parse_fragment("(range 1..8)", "collection") == Range(IntLit(1), IntLit(8))
    assert parse_fragment("(^ 2 5)", "int") == Arith("^", IntLit(2), IntLit(5))
    assert parse_fragment("(game vloc new)", "collection").name == NewName()
    top2 = parse_fragment("(top 2 (game vloc A))", "collection")
    assert isinstance(top2, Slice) and top2.end == "top" and top2.count == IntLit(2)
    third = parse_fragment("(2 (game vloc A))", "card")
    assert isinstance(third, CardAt) and third.position == IntLit(2)
    union = parse_fragment("(union (all player 'P ('P vloc A)))", "collection")
    assert isinstance(union, SetOp) and isinstance(union.parts, CardsAgg)
    assert parse_fragment("(union (game vloc A))", "collection").parts == (
        CardLocation(nodes.GameOwner(), "vloc", Name("A")),)
    part = parse_fragment("(partition SUIT (game vloc A))", "collection")
    assert isinstance(part, Partition) and part.key == Name("SUIT")
    cycle = parse_fragment("(cycle next previous)", "item")
    assert cycle == Cycle("next", "previous")
    deck = parse_fragment("(create deck SOURCE (game iloc STOCK) (deck (RANK (A, B))))", "item")
    assert isinstance(deck, CreateDeck) and deck.name == "SOURCE"
    teams = parse_fragment("(create teams (0, 1 (2)) (3))", "item").teams
    assert teams == (TeamSpec((0, 1), (TeamSpec((2,)),)), TeamSpec((3,)))


def test_positions_inside_a_fragment() -> None:
    node = parse_fragment("(move (top (game iloc STOCK))\n      (top ('P iloc HAND)))", "item")
    assert (node.line, node.column) == (1, 1)
    assert (node.source.line, node.source.column) == (1, 7)
    assert (node.target.line, node.target.column) == (2, 7)
    var = node.target.cards.owner
    assert var == Var("P") and (var.line, var.column) == (2, 13)


def test_positions_do_not_count_in_equality_but_show_in_outline() -> None:
    a = parse_fragment("(size player)", "int")
    b = parse_fragment("\n\n   (size player)", "int")
    assert a == b and (a.line, b.line) == (1, 3)
    assert outline(b) == "Size  @3:4\n  collection: AllPlayers  @3:10"


def test_repr_can_be_pasted() -> None:
    node = parse_fragment("(== (cardatt SUIT 'C) HEARTS)", "boolean")
    assert eval(repr(node), vars(nodes)) == node


def test_variables_kinds_from_their_bindings() -> None:
    game = parse_recycle(small_game(
        "(do ((all (A, B) 'S (let (filter (game iloc STOCK) 'C (== (cardatt SUIT 'C) 'S)) 'CS "
        "(all 'CS 'X (all (range 1..2) 'I (all team 'T (all 'T 'P (all (tuples 2 'CS using "
        "(game points M)) 'G ((== 'I ('P sto N)) (move 'X (top (game vloc D)))))))))))))",
        declare="(declare 2 'TWO)"))
    kinds = {n.name: n.kind for n in game.walk() if isinstance(n, Var)}
    assert kinds == {"TWO": "int", "S": "str", "C": "card", "CS": "cards", "X": "card", "I": "int",
                     "T": "team", "P": "player", "G": "cards"}
    compare = next(n for n in game.walk() if isinstance(n, Compare) and isinstance(n.left, Var))
    assert compare.kind == "int"
    assert kind_of(next(n for n in game.walk() if isinstance(n, Filter))) == "cards"


def test_deck_cards_follow_the_nesting() -> None:
    deck = parse_fragment("(create deck (game iloc S) (deck (RANK (A, K)) (COLOR (RED (SUIT (H, D))) "
                          "(BLACK (SUIT (C))))))", "item").deck
    assert isinstance(deck, Deck)
    cards = deck.cards()
    assert len(cards) == 6
    assert cards[0] == {"RANK": "A", "COLOR": "RED", "SUIT": "H"}
    assert {"RANK": "K", "COLOR": "BLACK", "SUIT": "C"} in cards
    assert not any(c["COLOR"] == "BLACK" and c["SUIT"] == "H" for c in cards)


def test_corpus_decks_have_the_usual_sizes() -> None:
    if not CORPUS:
        pytest.skip("needs ../shared/corpus/recycle (absent)")
    sizes = {}
    for path in CORPUS:
        game = parsed(path)
        made = [d for d in game.setup.decks if isinstance(d, CreateDeck)]
        sizes[path.stem] = sum(len(d.deck.cards()) for d in made)
    assert sizes["Cribbage2"] == 52 and sizes["Euchre4"] == 24 and sizes["KuhnPoker2"] == 3
    assert sizes["Agram4"] == 35
