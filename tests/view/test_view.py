"""The tables of ggp.view checked against the true states of seeded matches, the names of the
cards against the RECYCLE sources, and the move labels against what the moves do."""

from __future__ import annotations

import re

import pytest

from ggp.gdl.kif import parse_term
from ggp.gdl.terms import Constant, Function, Term
from ggp.view import scheme
from ggp.view.cards import card_faces
from ggp.view.glossary import glossary
from ggp.view.knowledge import Knowledge
from ggp.view.moves import describe_percepts, move_labels, to_move
from ggp.view.table import Table, build_table
from ggp.view.text import table_text
from tests.conftest import RULESHEETS
from tests.view.support import load, random_match

HERE = RULESHEETS.parent / "tests" / "web"


def T(text: str) -> Term:
    return parse_term(text)


def placed(table: Table) -> dict[str, set[str]]:
    """Location term (text) to the card terms shown face up there."""
    return {p.location: {c.term for c in p.cards} for a in table.areas for p in a.piles}


def true_places(fluents: frozenset[Term]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for fluent in fluents:
        found = scheme.card_place(fluent)
        if found is not None:
            out.setdefault(str(found[1].term), set()).add(str(found[0]))
    return out


def test_kuhn_cards_are_named_as_the_recycle_deck_names_them() -> None:
    description, _ = load(RULESHEETS / "kuhn.rcy")
    names = glossary(description)
    # rulesheets/kuhn.rcy: (deck (RANK (JACK, QUEEN, KING)))
    assert sorted(face.name for face in names.cards.values()) == ["Jack", "King", "Queen"]
    assert {face.index for face in names.cards.values()} == {"J", "Q", "K"}
    assert [w.name for w in names.locations if w.owner == "game"] == ["stock"]
    assert {w.owner for w in names.locations} == {"game", "player0", "player1"}


def test_agram_cards_are_rank_of_suit_and_red_as_their_colour() -> None:
    description, _ = load(RULESHEETS / "agram.rcy")
    names = glossary(description)
    facts = {str(r.head) for r in description.rules if r.is_fact}
    assert len(names.cards) == 35
    for card, face in names.cards.items():
        rank, suit = re.fullmatch(r"(\w+) of (hearts|diamonds|clubs|spades)", face.name, re.IGNORECASE).groups()  # type: ignore[union-attr]
        assert f"(attr {card} suit {suit})" in facts and f"(attr {card} rank {rank.lower()})" in facts
        assert face.red == (f"(attr {card} color red)" in facts)
        assert face.suit == {"hearts": "♥", "diamonds": "♦", "clubs": "♣", "spades": "♠"}[suit]
    assert len({f.name for f in names.cards.values()}) == 35


def test_card_faces_from_terms_and_attributes() -> None:
    faces = card_faces([T("(card ace spades)"), T("jack"), T("c7")], {})
    assert [f.name for f in faces.values()] == ["Ace of spades", "Jack", "C7"]
    assert faces[T("(card ace spades)")].suit == "♠" and faces[T("(card ace spades)")].index == "A"
    deck = {T("a"): [("rank", "ten"), ("colour", "red"), ("suit", "hearts")],
            T("b"): [("rank", "ten"), ("colour", "black"), ("suit", "clubs")],
            T("c"): [("rank", "two"), ("colour", "red"), ("suit", "diamonds")]}
    faces = card_faces(deck, deck)
    assert [f.name for f in faces.values()] == ["Ten of hearts", "Ten of clubs", "Two of diamonds"]
    assert [f.red for f in faces.values()] == [True, False, True]


@pytest.mark.parametrize("path, seed", [(RULESHEETS / "agram.rcy", 1), (HERE / "swap3.rcy", 2)])
def test_the_omniscient_table_shows_every_card_where_it_is(path: object, seed: int) -> None:
    description, machine = load(path)  # type: ignore[arg-type]
    names = glossary(description)
    for n, moment in enumerate(random_match(description, machine, seed, roles=())):
        table = build_table(names, Knowledge.of_state(moment.after), to_move=to_move(machine, moment.after))
        shown = {k: v for k, v in placed(table).items() if v}
        assert shown == true_places(moment.after.fluents), f"step {n}"
        assert all(p.hidden == 0 for a in table.areas for p in a.piles)
        if n > 40:
            break


@pytest.mark.parametrize("path, seed, steps", [(RULESHEETS / "kuhn.rcy", 4, 99), (HERE / "swap3.rcy", 5, 99),
                                               (RULESHEETS / "agram.rcy", 6, 20)])
def test_a_role_sees_only_what_it_may_and_all_it_may(path: object, seed: int, steps: int) -> None:
    """Against the true state: every card a role's table shows face up is there, every card in a
    place the role sees into is shown face up, every pile has its true size."""
    description, machine = load(path)  # type: ignore[arg-type]
    names = glossary(description)
    for n, moment in enumerate(random_match(description, machine, seed)):
        truth = true_places(moment.after.fluents)
        for role, belief in moment.beliefs.items():
            table = build_table(names, Knowledge.of_belief(belief))
            shown = placed(table)
            for where in names.locations:
                here = truth.get(str(where.term), set())
                face_up = shown[str(where.term)]
                assert face_up <= here, (n, role, where)
                if where.visible_to(str(role)):
                    assert face_up == here, (n, role, where)
            sizes = {p.location: p.size for a in table.areas for p in a.piles}
            assert sizes == {str(w.term): len(truth.get(str(w.term), ())) for w in names.locations}, (n, role)
            assert table.area(str(role)) is not None and table.area(str(role)).you  # type: ignore[union-attr]
        if n >= steps:
            break


def test_kuhn_moves_are_labelled_by_what_they_do() -> None:
    description, machine = load(RULESHEETS / "kuhn.rcy")
    names = glossary(description)
    state = machine.initial_state()
    while not to_move(machine, state):
        state = machine.next_state(state, [moves[0] for moves in machine.all_legal_moves(state)])
    seen = []
    while not machine.is_terminal(state):
        (role,) = to_move(machine, state)
        labels = move_labels(machine, names, [state], role)
        seen.append(sorted(labels.values()))
        move = next(m for m, label in labels.items() if label in ("bet", "call"))
        joint = [move if r == role else moves[0] for r, moves in zip(machine.roles, machine.all_legal_moves(state))]
        state = machine.next_state(state, joint)
        assert T(f"(str game last {labels[move]})") in state.fluents  # the label is what the move did
        if labels[move] == "call":
            break
    assert seen == [["bet", "check"], ["call", "fold"]]


def test_labels_tell_no_more_than_the_role_knows() -> None:
    """In Swap, a player's labels name its own card (it sees it) and no other."""
    description, machine = load(HERE / "swap3.rcy")
    names = glossary(description)
    checked = 0
    for moment in random_match(description, machine, 7):
        for role, belief in moment.beliefs.items():
            distribution = belief.distribution()
            likely = sorted(distribution, key=lambda s: -distribution[s])[:6]
            if role not in to_move(machine, moment.after) or len(likely) < 2:
                continue
            labels = move_labels(machine, names, likely, role, belief.legal_moves(), viewer=role)
            known = {names.cards[f.args[0]].name for f in belief.known()
                     if isinstance(f, Function) and f.name == "at" and str(f.args[1]).startswith(f"(loc {role} ")}
            others = {face.name for face in names.cards.values()} - known
            for label in labels.values():
                assert not any(name in label for name in others), (label, known)
            assert any(name in label for label in labels.values() for name in known)
            checked += 1
    assert checked >= 2


def test_percepts_in_words() -> None:
    description, machine = load(RULESHEETS / "kuhn.rcy")
    names = glossary(description)
    lines: dict[Constant, list[str]] = {}
    for moment in random_match(description, machine, 4, roles=()):
        seen = machine.percepts(moment.before, moment.joint)
        for role in (Constant("player0"), Constant("player1")):
            lines.setdefault(role, []).extend(describe_percepts(names, seen.get(role, frozenset()), role))
    assert "stock shuffled" in lines[Constant("player0")]
    assert "a card face down: stock → player0's hand" in lines[Constant("player1")]
    assert any(re.fullmatch(r"(Jack|Queen|King): stock → your hand", line) for line in lines[Constant("player1")])
    assert not any("(" in line for role_lines in lines.values() for line in role_lines)


def test_the_table_as_text() -> None:
    description, machine = load(RULESHEETS / "kuhn.rcy")
    names = glossary(description)
    for moment in random_match(description, machine, 4):
        if to_move(machine, moment.after):
            break
    belief = moment.beliefs[Constant("player0")]
    text = table_text(build_table(names, Knowledge.of_belief(belief), to_move=to_move(machine, moment.after)))
    mine = next(f.args[0] for f in moment.after.fluents
                if isinstance(f, Function) and f.name == "at" and str(f.args[1]) == "(loc player0 iloc hand)")
    assert f"hand (seen by player0): {names.cards[mine].name}" in text
    assert "player0 (you)  [to move]" in text
    assert "hand (seen by player1): 1 card face down (maybe" in text
    assert "pot 2" in text and "chips -1" in text


def test_games_without_cards_show_their_facts_and_boards() -> None:
    description, machine = load(RULESHEETS / "tictactoe.kif")
    names = glossary(description)
    assert not names.card_game
    state = machine.initial_state()
    table = build_table(names, Knowledge.of_state(state), to_move=to_move(machine, state))
    cell = next(g for g in table.facts if g.relation == "cell")
    assert cell.board is not None and len(cell.board.cells) == 3 and all(len(r) == 3 for r in cell.board.cells)
    assert table.to_move == ("xplayer",) or len(table.to_move) == 1
    assert move_labels(machine, names, [state], table_role(machine, state)) == \
        {m: " ".join(str(m).strip("()").split()) for m in machine.legal_moves(state, table_role(machine, state))}


def table_role(machine: object, state: object) -> Constant:
    return to_move(machine, state)[0]  # type: ignore[arg-type]


def test_wide_integers_are_read_back_from_their_digits() -> None:
    """A cell kept in decimal digits (``wsto``: the value plus 5 x 10^(K-1)) reads as its value:
    the four chips each player of ``chips2`` starts with (its bets make the cell wide), and the
    chips moved by the first bet (read as 5004 and so on before)."""
    from pathlib import Path

    from ggp.reasoner import make_machine
    from ggp.reasoner.machine import State
    from translators.recycle.translate import translate_file

    translation = translate_file(Path(__file__).parents[1] / "conformance" / "games" / "chips2.rcy")
    machine = make_machine(translation.description, "fast")

    def to_choice(state: State) -> State:
        while not any(len(machine.legal_moves(state, r)) > 1 for r in machine.roles if str(r) != "random"):
            state = machine.next_state(state, tuple(machine.legal_moves(state, r)[0] for r in machine.roles))
        return state

    state = to_choice(machine.initial_state())
    assert any(isinstance(f, Function) and f.name == scheme.WSTO for f in state.fluents)
    chips = {s.owner: int(s.value) for s in scheme.stored_values(state.fluents) if s.name == "chips"}
    assert chips == {"player0": 4, "player1": 4}
    bet = parse_term("(choose 0 3)")
    assert bet in machine.legal_moves(state, machine.roles[0])
    state = to_choice(machine.next_state(state, (bet,) + tuple(machine.legal_moves(state, r)[0] for r in machine.roles[1:])))
    chips = {s.owner: int(s.value) for s in scheme.stored_values(state.fluents) if s.name == "chips"}
    assert chips == {"player0": 1, "player1": 7}
