"""Positions as JSON: the one codec behind `State.snapshot()` and `Game.state_from_snapshot(data)`.

A snapshot is a whole state as plain JSON (docs/contributing/snapshot.md):

    {"format": "warcards-position", "version": 1, "game": GAME_ID, "options": {...},
     "history": [actions...], "state": {field: value, ...}}

The codec walks the state's own fields (its `__slots__`, compiled its native attributes); it needs no code per game, only a
`SnapshotFields` declaration on the state class naming what is not data: the fields fixed by the game and
its options (card tables, the action layout, option flags: re-attached from a fresh state of the same game,
never sent), the caches (rebuilt empty, never sent), and the type of any field a fresh state does not show
(a list that starts empty but holds bools or tuples). Every other field's type is read off a fresh state:
ints, bools, floats, and lists and tuples of them, nested.

Reading a snapshot trusts nothing: the shape, every type and size, the game and its options, the cards
(each in exactly one zone) and the reads every consumer makes (`observe`, `legal_actions`, ...) are checked,
and anything wrong raises `SnapshotError` saying what is wrong and what is allowed.
"""

from __future__ import annotations

import enum
import math
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from warcards.engine.errors import SnapshotError
from warcards.engine.text import quote

if TYPE_CHECKING:
    from warcards.engine.api import Game, State

FORMAT = "warcards-position"
VERSION = 1
MAX_INT_BITS = 512
"""The widest integer a snapshot may hold (bitmasks of cards are the widest fields, about 170 bits)."""
MAX_LIST = 4096
"""The longest list a snapshot may hold."""
MAX_ITEMS = 100_000
"""How many list items a whole snapshot may hold."""

_TOP_KEYS = ("format", "version", "game", "options", "history", "state")
_BASE_FIELDS = frozenset({"game", "_history", "_legal_cache"})
"""The contract's own attributes (`State.__init__`): the game is re-attached, the history has its own key."""


@dataclass(frozen=True, slots=True)
class Kind:
    """The type of a snapshot field: `int`, `bool`, `float`, an `IntEnum` of the game's (`enum`, sent as its
    number), or a `list`/`tuple` of one kind."""

    name: str
    item: Kind | None = None
    members: type[enum.IntEnum] | None = None

    def __str__(self) -> str:
        if self.members is not None:
            return self.members.__name__
        return self.name if self.item is None else f"{self.name}[{self.item}]"


INT = Kind("int")
BOOL = Kind("bool")
FLOAT = Kind("float")


def list_of(item: Kind) -> Kind:
    """A list whose items are all of `item`'s kind."""
    return Kind("list", item)


def tuple_of(item: Kind) -> Kind:
    """A tuple (of any length) whose items are all of `item`'s kind; a JSON array in the snapshot."""
    return Kind("tuple", item)


@dataclass(frozen=True)
class SnapshotFields:
    """What a state class tells the codec (`State.snapshot_fields`): the fields `fixed` by the game and its
    options, the `caches`, and the `types` a fresh state does not show. Every other field is data."""

    fixed: tuple[str, ...] = ()
    caches: tuple[str, ...] = ()
    types: Mapping[str, Kind] = field(default_factory=dict)


def enum_of(members: type[enum.IntEnum]) -> Kind:
    """A member of the game's `IntEnum` `members` (a phase, say): its number in the snapshot."""
    return Kind("enum", members=members)


def _infer(value: object) -> Kind | None:
    """The kind of a fresh state's field value, or None when it is none the codec knows."""
    if isinstance(value, enum.IntEnum):
        return enum_of(type(value))
    if type(value) is bool:
        return BOOL
    if type(value) is int:
        return INT
    if type(value) is float:
        return FLOAT
    if type(value) in (list, tuple):
        items = {_infer(item) for item in value}  # type: ignore[attr-defined]  # value is a list or a tuple here (the type check above), which mypy does not narrow from type() in (...)
        if len(items) > 1 or None in items:
            return None
        item = items.pop() if items else INT
        return Kind(type(value).__name__, item)
    return None


def _encoder(kind: Kind) -> Callable[[Any], Any]:
    """A function turning a value of `kind` into fresh JSON values (lists copied, tuples made lists)."""
    item = kind.item
    if kind.members is not None:
        return int
    if item is None:
        return _same
    if item.item is None:
        return list
    inner = _encoder(item)
    return lambda value: [inner(x) for x in value]


def _same(value: Any) -> Any:
    return value


def _fresh(value: Any) -> Any:
    """A new copy of a cache's empty value (a list of Nones is mutated in place by the rules)."""
    return [_fresh(item) for item in value] if type(value) is list else value


def attribute_names(state: State) -> set[str]:
    """Every attribute a state holds: its `__slots__` entries (or, compiled, the native class's attributes,
    `__mypyc_attrs__`) set on it, and its `__dict__` if it has one (a state class without `__slots__`)."""
    names = set(getattr(state, "__dict__", ()))
    declared: list[str] = list(getattr(type(state), "__mypyc_attrs__", ()))
    for cls in type(state).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        declared += (slots,) if isinstance(slots, str) else slots
    names.update(name for name in declared if hasattr(state, name))
    return names - {"__dict__", "__weakref__"}


class Codec:
    """The snapshot codec of one game (with its options), made once from a fresh state of it."""

    def __init__(self, game: Game) -> None:
        template = game.new_initial_state()
        declared = type(template).snapshot_fields
        if declared is None:
            raise SnapshotError(f"{game.game_id} declares no snapshot fields: its positions cannot be saved")
        names = attribute_names(template) - _BASE_FIELDS
        unknown = (set(declared.fixed) | set(declared.caches) | set(declared.types)) - names
        if unknown:
            raise TypeError(f"{type(template).__name__}.snapshot_fields names no field {sorted(unknown)}")
        self.game = game
        self.state_class = type(template)
        self.template = template
        self.fixed = tuple(sorted(declared.fixed))
        self.caches = tuple(sorted(declared.caches))
        kinds: dict[str, Kind] = {}
        for name in sorted(names - set(declared.fixed) - set(declared.caches)):
            kind = declared.types.get(name) or _infer(getattr(template, name))
            if kind is None:
                raise TypeError(
                    f"{type(template).__name__}.{name} holds a {type(getattr(template, name)).__name__}: declare it "
                    "fixed, a cache, or its type in snapshot_fields"
                )
            kinds[name] = kind
        self.kinds = kinds
        self.encoders = [(name, _encoder(kind)) for name, kind in kinds.items()]
        self.options = dict(game.options)
        self.cards = Counter(card for zone in template.zones().values() for card in zone)
        self.history_stop = max(game.num_distinct_actions, game.max_chance_outcomes)

    # ----- writing ------------------------------------------------------------------------------------------
    def encode(self, state: State) -> dict[str, Any]:
        if type(state) is not self.state_class:
            raise TypeError(f"a {type(state).__name__} is no {self.state_class.__name__}")
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game.game_id,
            "options": dict(self.options),
            "history": list(state._history),
            "state": {name: encode(getattr(state, name)) for name, encode in self.encoders},
        }

    # ----- reading ------------------------------------------------------------------------------------------
    def decode(self, data: object) -> State:
        state = self.build(data)
        self._check_position(state)
        return state

    def build(self, data: object) -> State:
        """The state of `data` with every field's type and size checked, before its position is checked."""
        game_id = self.game.game_id
        if type(data) is not dict:
            raise SnapshotError(f"a snapshot is a JSON object (dict), not {_describe(data)}")
        _check_keys(data, _TOP_KEYS, "the snapshot")
        if data["format"] != FORMAT:
            raise SnapshotError(f"format is {quote(data['format'])}: a position snapshot has format {FORMAT!r}")
        if type(data["version"]) is not int or data["version"] != VERSION:
            raise SnapshotError(f"version is {quote(data['version'])}: this engine reads version {VERSION}")
        if data["game"] != game_id:
            raise SnapshotError(f"the snapshot is of game {quote(data['game'])}, not {game_id!r}")
        self._check_options(data["options"])
        budget = [MAX_ITEMS]
        history = _decode(data["history"], list_of(INT), "history", budget)
        if len(history) > self.game.max_game_length:
            raise SnapshotError(f"history has {len(history)} actions; {game_id} games last at most "
                                f"{self.game.max_game_length}")
        for index, action in enumerate(history):
            if not 0 <= action < self.history_stop:
                raise SnapshotError(f"history[{index}] is {quote(action)}: actions are 0..{self.history_stop - 1}")
        fields = data["state"]
        if type(fields) is not dict:
            raise SnapshotError(f"state is a JSON object of the position's fields, not {_describe(fields)}")
        _check_keys(fields, tuple(self.kinds), f"the {game_id} state")
        template = self.template
        state = template._copy()  # the game's own copy (a compiled state cannot be made by __new__); every field is set below
        state.game = self.game
        state._history = history
        state._legal_cache = None
        for name in self.fixed:
            setattr(state, name, getattr(template, name))
        for name in self.caches:
            setattr(state, name, _fresh(getattr(template, name)))
        for name, kind in self.kinds.items():
            value = fields[name]
            if kind is INT and type(value) is int and value.bit_length() <= MAX_INT_BITS:
                setattr(state, name, value)
            else:
                setattr(state, name, _decode(value, kind, f"state.{name}", budget))
        return state

    def _check_options(self, options: object) -> None:
        if type(options) is not dict:
            raise SnapshotError(f"options is a JSON object, not {_describe(options)}")
        if options == self.options:
            return
        unknown = [name for name in options if name not in self.options]
        if unknown:
            raise SnapshotError(f"the snapshot names option {quote(unknown[0])}; {self.game.game_id} options are "
                                + ", ".join(sorted(self.options)))
        missing = [name for name in self.options if name not in options]
        if missing:
            raise SnapshotError(f"the snapshot lacks option {missing[0]!r}; it names every option of the game")
        differ = [
            f"{name}={quote(options[name])} (this game: {self.options[name]!r})"
            for name in sorted(self.options)
            if options[name] != self.options[name] or type(options[name]) is not type(self.options[name])
        ]
        raise SnapshotError(f"the snapshot is of other options: {_names(differ, 4)}")

    def _check_position(self, state: State) -> None:
        """The cards each in exactly one zone, the game's own consistency check, and every read a consumer
        makes answering sanely."""
        game = self.game
        try:
            cards = [card for zone in state.zones().values() for card in zone]
            counted = Counter(cards)
            if counted != self.cards:
                lost = sorted(self.cards - counted, key=str)[:5]
                extra = sorted(counted - self.cards, key=str)[:5]
                raise SnapshotError(f"the snapshot's zones lose cards {lost} or duplicate or invent {extra}: each "
                                    f"of the game's {self.cards.total()} cards lies in exactly one zone")
            problem = state._snapshot_problem()
            if problem:
                raise SnapshotError(f"the snapshot's position is inconsistent: {problem}")
            player = state.current_player()
            legal = state.legal_actions()
            if state.is_terminal():
                problem = "lists actions at the end" if legal else None
            elif state.is_chance_node():
                outcomes = state.chance_outcomes()
                total = math.fsum(p for _, p in outcomes)
                problem = None if outcomes and abs(total - 1.0) < 1e-9 else "has no chance outcomes summing to 1"
                problem = problem or _check_actions(legal, game.max_chance_outcomes)
            elif type(player) is int and 0 <= player < game.num_players:
                problem = _check_actions(legal, game.num_distinct_actions)
            else:
                problem = f"has {quote(player)} to act (seats are 0..{game.num_players - 1})"
            if problem:
                raise SnapshotError(f"the snapshot's position {problem}")
            if len(state.returns()) != game.num_players:
                raise SnapshotError("the snapshot's position has returns for another number of seats")
            state.position()
            for seat in range(game.num_players):
                state.observe(seat)
            state._legal_cache = None
        except SnapshotError:
            raise
        except Exception as error:
            raise SnapshotError(
                f"the snapshot holds no consistent {game.game_id} position (reading it failed: "
                f"{type(error).__name__}: {quote(str(error), 80)})"
            ) from None


def _check_actions(legal: list[int], stop: int) -> str | None:
    if not legal:
        return "has no legal action before the end"
    if legal != sorted(set(legal)) or legal[0] < 0 or legal[-1] >= stop:
        return f"lists actions outside 0..{stop - 1} or out of order"
    return None


def _check_keys(data: dict[Any, Any], expected: tuple[str, ...], what: str) -> None:
    missing = [key for key in expected if key not in data]
    if missing:
        raise SnapshotError(f"{what} lacks {_names(missing)}; it has exactly: {_names(list(expected))}")
    if len(data) != len(expected):
        extra = [key for key in data if key not in expected]
        raise SnapshotError(f"{what} has unknown key {quote(extra[0])}; it has exactly: {_names(list(expected))}")


def _names(names: list[str], limit: int = 12) -> str:
    shown = ", ".join(names[:limit])
    return shown if len(names) <= limit else f"{shown} … ({len(names) - limit} more)"


def _describe(value: object) -> str:
    return f"the {type(value).__name__} {quote(value)}"


def _plain(items: list[Any], kind: Kind) -> bool:
    """Whether `items` are all ints of at most `MAX_INT_BITS` (`kind` INT) or all bools (`kind` BOOL), checked
    in C: the common case of a list field, which then needs no walk item by item."""
    if kind is INT:
        return set(map(type, items)) <= {int} and max(map(int.bit_length, items), default=0) <= MAX_INT_BITS
    return kind is BOOL and set(map(type, items)) <= {bool}


class _Bad(Exception):
    """A value of the wrong kind: where, below the field (`[2][0]`), and what is wrong with it."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(where, problem)
        self.where = where
        self.problem = problem


def _decode(value: Any, kind: Kind, path: str, budget: list[int]) -> Any:
    """`value` (untrusted JSON) as a value of `kind`, or `SnapshotError` naming `path` and what is wrong."""
    try:
        return _value(value, kind, budget)
    except _Bad as bad:
        raise SnapshotError(f"{path}{bad.where} {bad.problem}") from None


def _value(value: Any, kind: Kind, budget: list[int]) -> Any:
    name = kind.name
    if name == "int":
        if type(value) is not int:
            raise _Bad("", f"is an integer, not {_describe(value)}")
        if value.bit_length() > MAX_INT_BITS:
            raise _Bad("", f"is an integer of {value.bit_length()} bits; at most {MAX_INT_BITS} are allowed")
        return value
    if kind.members is not None:
        if type(value) is not int or value not in kind.members._value2member_map_:
            numbers = ", ".join(f"{int(member)} ({member.name})" for member in kind.members)
            raise _Bad("", f"is one of {numbers}, not {_describe(value)}")
        return kind.members(value)
    if name == "bool":
        if type(value) is not bool:
            raise _Bad("", f"is true or false, not {_describe(value)}")
        return value
    if name == "float":
        if type(value) is int and value.bit_length() <= 53:
            return float(value)
        if type(value) is not float or not math.isfinite(value):
            raise _Bad("", f"is a finite number, not {_describe(value)}")
        return value
    if type(value) is not list:
        raise _Bad("", f"is a JSON array of {kind.item}, not {_describe(value)}")
    if len(value) > MAX_LIST:
        raise _Bad("", f"has {len(value)} items; a list holds at most {MAX_LIST}")
    budget[0] -= len(value)
    if budget[0] < 0:
        raise _Bad("", f"brings the snapshot over {MAX_ITEMS} list items in all")
    item = kind.item
    assert item is not None
    if _plain(value, item):
        checked = value[:]
    else:
        checked = []
        for index, x in enumerate(value):
            try:
                checked.append(_value(x, item, budget))
            except _Bad as bad:
                raise _Bad(f"[{index}]{bad.where}", bad.problem) from None
    return tuple(checked) if name == "tuple" else checked


def codec_of(game: Game) -> Codec:
    """The game's codec, made on first use and kept on the game (its options never change)."""
    codec = game.__dict__.get("_snapshot_codec")
    if codec is None:
        codec = game.__dict__["_snapshot_codec"] = Codec(game)
    return codec
