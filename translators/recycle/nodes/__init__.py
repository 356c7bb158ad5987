"""The typed syntax tree of RECYCLE programs: immutable dataclasses with line and column.

One module per area: :mod:`.base` (nodes, variables, kinds), :mod:`.owners`, :mod:`.values`
(integers, strings, point maps), :mod:`.cards` (cards, card collections, groups),
:mod:`.collections`, :mod:`.logic` (conditions), :mod:`.actions`, :mod:`.flow` and
:mod:`.game`. ``docs/recycle-parser.md`` describes every class.
"""

from translators.recycle.nodes.actions import (
    Action, ActionAgg, AttrPair, Attribute, Award, CreateDeck, CreateTeams, Cycle, Deck,
    FaroShuffle, Forget, IntUpdate, Move, Remember, Repeat, RepeatAll, SetPoints, SetStr,
    Shuffle, TeamSpec, TurnPass,
)
from translators.recycle.nodes.base import ELEMENT_KIND, Kind, Node, Var
from translators.recycle.nodes.cards import (
    ActualCard, CardAt, CardExpr, CardLocation, CardsAgg, CardsExpr, CollectionAt, End,
    ExtremeCard, Filter, GroupsExpr, NewName, Partition, Position, Run, Runs, SetOp, Slice,
    Sort, Subsets, Tuples, Visibility,
)
from translators.recycle.nodes.collections import (
    AllPlayers, AllTeams, Collection, NameList, Others, Range,
)
from translators.recycle.nodes.flow import Body, Choice, Conditional, Do, FlowItem, Item, Let, Stage
from translators.recycle.nodes.game import CreatePlayers, Declare, Game, Scoring, Setup
from translators.recycle.nodes.logic import (
    And, BoolAgg, Boolean, Compare, CompareKind, CompareOp, Not, Operand, Or, Value,
)
from translators.recycle.nodes.owners import (
    GameOwner, Owner, OwnerOf, PlayerAt, PlayerExpr, Relative, RelativePlayer, RelativeTeam,
    TeamAt, TeamExpr, TeamOf,
)
from translators.recycle.nodes.values import (
    Arith, ArithOp, CardAtt, Fib, IntAgg, IntExpr, IntLit, IntStorage, Name, PointMap,
    PointStorage, Random, Score, Size, StrExpr, StrStorage, Sum, Tri,
)

__all__ = [
    "Action", "ActionAgg", "ActualCard", "AllPlayers", "AllTeams", "And", "Arith", "ArithOp",
    "AttrPair", "Attribute", "Award", "Body", "BoolAgg", "Boolean", "CardAt", "CardAtt",
    "CardExpr", "CardLocation", "CardsAgg", "CardsExpr", "Choice", "Collection",
    "CollectionAt", "Compare", "CompareKind", "CompareOp", "Conditional", "CreateDeck",
    "CreatePlayers", "CreateTeams", "Cycle", "Declare", "Deck", "Do", "ELEMENT_KIND", "End",
    "ExtremeCard", "FaroShuffle", "Fib", "Filter", "FlowItem", "Forget", "Game", "GameOwner",
    "GroupsExpr", "IntAgg", "IntExpr", "IntLit", "IntStorage", "IntUpdate", "Item", "Kind",
    "Let", "Move", "Name", "NameList", "NewName", "Node", "Not", "Operand", "Or", "Others",
    "Owner", "OwnerOf", "Partition", "PlayerAt", "PlayerExpr", "PointMap", "PointStorage",
    "Position", "Random", "Range", "Relative", "RelativePlayer", "RelativeTeam", "Remember",
    "Repeat", "RepeatAll", "Run", "Runs", "Score", "Scoring", "SetOp", "SetPoints", "SetStr",
    "Setup", "Shuffle", "Size", "Slice", "Sort", "Stage", "StrExpr", "StrStorage", "Subsets",
    "Sum", "TeamAt", "TeamExpr", "TeamOf", "TeamSpec", "Tri", "Tuples", "TurnPass", "Value",
    "Var", "Visibility",
]
