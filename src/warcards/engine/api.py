"""The engine contract every warcards game implements (OpenSpiel's shape).

A `Game` is a rules set with resolved options; it makes `State`s. A `State` is one position. Consumers —
the match runner, bots, the RL wrappers, the CLI, the server — talk to games only through these methods.

Conventions:
- Seats are numbered from 0. `current_player()` is a seat, `CHANCE` at a chance node or `TERMINAL` at the end.
- Player actions are integers in `range(game.num_distinct_actions)`; chance outcomes are integers in
  `range(game.max_chance_outcomes)`. `legal_actions()` at a chance node lists the outcomes.
- Every random event (a draw from a face-down pile, a die) is a chance node, so the rules never hold a
  hidden order and never call an RNG; `determinize` takes the caller's RNG.
"""

from __future__ import annotations

import operator
from abc import ABC, abstractmethod
from bisect import bisect_left, bisect_right
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate, groupby, repeat
from pathlib import Path
from typing import Any, ClassVar, Final, Generic, Protocol, Self, SupportsIndex

from mypy_extensions import mypyc_attr
from typing_extensions import TypeVar

from warcards.engine.errors import IllegalActionError, InvalidActionError, SeatError
from warcards.engine.snapshot import SnapshotFields, codec_of
from warcards.engine.text import MAX_ACTION_TEXT, QUOTE_LIMIT, parse_bare_number, quote

CHANCE: Final = -1
"""`current_player()` at a chance node (OpenSpiel's number). `Final`: compiled, every use is the number itself."""
TERMINAL: Final = -4
"""`current_player()` at the end of the game (OpenSpiel's number)."""

JSON = dict[str, Any]

T = TypeVar("T")


class Rng(Protocol):
    """What the engine needs of a random generator (`random.Random` fits); only callers own one."""

    def random(self) -> float: ...

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int: ...  # real defaults: a compiled module evaluates them

    def shuffle(self, x: list[Any]) -> None: ...


@mypyc_attr(native_class=False)  # compiled with this module, still a plain class: games add attributes, pickle, override class attributes
class Game(ABC):
    """A game with its options resolved. Subclasses set the class and instance attributes below."""

    game_id: str = ""
    title: str = ""

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.options: dict[str, Any] = dict(options)

    @property
    @abstractmethod
    def num_players(self) -> int:
        """How many seats this game (with its options) has."""

    @property
    @abstractmethod
    def num_distinct_actions(self) -> int:
        """Size of the fixed player action space."""

    @property
    @abstractmethod
    def max_chance_outcomes(self) -> int:
        """Size of the fixed chance outcome space."""

    @property
    @abstractmethod
    def max_game_length(self) -> int:
        """An upper bound on the number of actions (chance included) in one game."""

    @abstractmethod
    def new_initial_state(self) -> State:
        """The state before the first action (usually a chance node: the first card dealt)."""

    @abstractmethod
    def state_from_setup(self, setup: Mapping[str, Any]) -> State:
        """A state built from a scenario `setup` (zone -> card ids plus the game's position fields).

        Raises `SetupError` when the setup loses or duplicates a card or names an unknown field.
        """

    def state_from_snapshot(self, data: object) -> State:
        """The state a `State.snapshot()` of this game (with these options) describes, rebuilt exactly.

        `data` is untrusted: anything but a snapshot of this game and options whose every field has its type,
        whose cards each lie in exactly one zone and whose position answers the contract's reads raises
        `SnapshotError` saying what is wrong (docs/contributing/snapshot.md)."""
        return codec_of(self).decode(data)

    def seat_names(self) -> list[str]:
        """Names of the seats, in seat order (e.g. ["allies", "axis"])."""
        return [f"player {i}" for i in range(self.num_players)]

    def parse_seat(self, text: str) -> int:
        """A seat number from its name or number, or `SeatError` (a `ValueError`) listing the seats."""
        names = self.seat_names()
        lowered = text.strip().lower() if isinstance(text, str) else None
        for index, name in enumerate(names):
            if lowered in (name.lower(), str(index)):
                return index
        raise SeatError(
            f"unknown seat {quote(text)}; seats are: " + ", ".join(f"{i} ({name})" for i, name in enumerate(names))
        )

    def rulings_path(self) -> Path | None:
        """The game's RULES.md (rulings on the text's gaps), if it ships one."""
        return None

    def __repr__(self) -> str:
        return f"load_game({self.game_id!r}, **{self.options!r})"

    def __getstate__(self) -> dict[str, Any]:
        """What pickling a game keeps (process pools send games to workers): all but the snapshot codec a
        game makes on first use (`codec_of`), which the copy makes again when it needs it."""
        return {key: value for key, value in self.__dict__.items() if key != "_snapshot_codec"}

    def check_seat(self, seat: object) -> int:
        """`seat` as a seat number, or `SeatError` naming the seats: seats are the integers
        0..num_players-1 (an integer type through `operator.index`, never a bool, a float or text)."""
        if type(seat) is int and 0 <= seat < self.num_players:
            return seat
        if not isinstance(seat, bool):
            try:
                number = operator.index(seat)  # type: ignore[arg-type]  # any object: a non-index raises TypeError, caught below
            except TypeError:
                number = -1
            else:
                if 0 <= number < self.num_players:
                    return number
        seats = ", ".join(f"{i} ({name})" for i, name in enumerate(self.seat_names()))
        shown = repr(seat) if len(repr(seat)) <= 40 else quote(seat)
        raise SeatError(f"{shown} is not a seat of {self.game_id}: seats are {seats}")


GameT = TypeVar("GameT", bound=Game, default=Game, covariant=True)
"""The game a state belongs to: `NavalWarState(State["NavalWarGame"])` reads its own game's attributes."""


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (the compiled core), the template's and tests' states subclass it in Python
class State(ABC, Generic[GameT]):
    """One position. Subclasses implement the `_`-prefixed hooks; the public methods add the checks.

    `legal_actions()` is cached until the next `apply_action`, so the usual driver loop (list the legal
    actions, choose one, apply it) computes them once per step.
    """

    snapshot_fields: ClassVar[SnapshotFields | None] = None
    """What `snapshot` must not send as data: the fields fixed by the game, the caches, and the types a fresh
    state does not show (`warcards.engine.snapshot`). None: the game's positions cannot be saved."""

    __slots__ = ("_history", "_legal_cache", "game")

    def __init__(self, game: GameT) -> None:
        self.game = game
        self._history: list[int] = []
        self._legal_cache: list[int] | None = None

    # ----- hooks for the game ---------------------------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, `CHANCE` or `TERMINAL`."""

    @abstractmethod
    def _legal_actions(self) -> list[int]:
        """Sorted legal player actions (only called at decision nodes)."""

    @abstractmethod
    def _chance(self) -> Chance:
        """How this chance node's outcomes are drawn, and from what (called at chance nodes only): a `Uniform`,
        `Counted` or `Weighted` description, from which the engine derives the legal list, `chance_outcomes()`,
        `sample_outcome` and the default `apply_chance`. The one question the engine asks a game at a chance
        node; a description may hold a list the state holds (a draw pile), read at once and never kept."""

    @abstractmethod
    def _apply(self, action: int) -> None:
        """Apply a legal action or chance outcome (already checked)."""

    @abstractmethod
    def _illegal_reason(self, action: int) -> str:
        """Why `action` (a real action of the game) is not legal now, citing the rule section."""

    @abstractmethod
    def returns(self) -> list[float]:
        """One float per seat; zeros before the end."""

    @abstractmethod
    def _copy(self) -> State:
        """A deep, independent copy of the game data (history is copied by `clone`)."""

    @abstractmethod
    def _observe(self, seat: int) -> JSON:
        """A JSON-ready dict of exactly what `seat` (already range-checked by `observe`) may know now."""

    def _observe_fields(self, seat: int, fields: frozenset[str]) -> JSON:
        """The named top-level fields of `_observe(seat)`, and only those (an unknown name is left out).

        Bots that read a few fields call `observe_fields` on every move; a game may override this hook to
        compute just those fields, and must then give exactly the values `_observe` gives (the conformance
        battery checks it)."""
        return {key: value for key, value in self._observe(seat).items() if key in fields}

    @abstractmethod
    def _determinize(self, seat: int, rng: Rng) -> State:
        """A complete state consistent with everything `seat` (already checked) has seen, hidden cards
        sampled with `rng`; it must depend only on `seat`'s view and `rng`. `determinize` empties its
        history."""

    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """The action in the game's notation (chance outcomes too), in the current context."""

    @abstractmethod
    def _parse_action(self, text: str) -> int:
        """The action for `text` in the game's notation, or `InvalidActionError`."""

    @abstractmethod
    def zones(self) -> dict[str, list[str]]:
        """God view: every zone's card ids (each physical card in exactly one zone)."""

    @abstractmethod
    def position(self) -> JSON:
        """The game's documented position fields (phase, scores, whose turn, ...), JSON-ready."""

    # ----- the contract ----------------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def legal_actions(self) -> list[int]:
        cached = self._legal_cache
        if cached is None:
            # The list behind it, kept until the next step: the player actions at a decision node, the chance
            # outcomes' numbers at a chance node, `[]` at the end (a game describes its nodes through
            # `_legal_actions` and `_chance`). Inline: the driver loop asks at every decision.
            player = self.current_player()
            if player >= 0:
                cached = self._legal_actions()
            elif player == CHANCE:
                cached = self._chance().numbers()
            else:
                cached = []
            self._legal_cache = cached
        return cached.copy()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.current_player() != CHANCE:
            return []
        # The driver loop applies one of these next: keep their numbers as the legal list, so that `apply_action`
        # does not describe the node a second time. A `Uniform` hands over the list it holds (a draw pile, not
        # copied: valid until the next step, and never shared by `clone`).
        pairs, self._legal_cache = self._chance().pairs_and_numbers()
        return pairs

    def sample_outcome(self, u: float) -> int:
        """The chance outcome at cumulative probability `u`: exactly `sample_chance(self.chance_outcomes(), u)`
        for every `u`, without building the (outcome, probability) pairs (the node's description picks it:
        `Chance.pick`). At a node that is not a chance node it raises `ValueError`."""
        if self.current_player() != CHANCE:
            raise ValueError("sample_outcome: this is not a chance node")
        return self._sample_outcome(u)

    def apply_chance(self, u: float) -> int:
        """Apply the chance outcome at cumulative probability `u` and return it: `apply_action(sample_outcome(u))`,
        without testing the outcome against the legal list again (it is one by construction) — the driver
        loops' chance step. At a node that is not a chance node it raises `ValueError`, the state unchanged."""
        outcome = self._apply_chance(u)
        self._history.append(outcome)
        self._legal_cache = None
        return outcome

    def _apply_chance(self, u: float) -> int:
        """Hook behind `apply_chance`: apply the outcome at cumulative probability `u` and return it — by
        default `_apply(_chance().pick(u))` — or, at a node that is not a chance node, raise `ValueError`
        (`not_a_chance_node()`) with the state unchanged. A game may do both in one go where a draw is most of
        its actions; it must pick the same outcome, leave the same state for every `u` and refuse at the other
        nodes (the battery checks)."""
        if self.current_player() != CHANCE:
            raise not_a_chance_node()
        outcome = self._sample_outcome(u)
        self._apply(outcome)
        return outcome

    def _sample_outcome(self, u: float) -> int:
        """The outcome `sample_outcome(u)` gives (engine-private; called at chance nodes only)."""
        return self._chance().pick(u)

    def apply_action(self, action: object) -> None:
        """Apply a legal action; an unknown action raises `InvalidActionError`, an illegal one
        `IllegalActionError`, and in both cases the state is unchanged.

        Only integers are actions: an `int` (never a `bool`) or a value with an integer `__index__` (a numpy
        integer), converted to a plain `int` before the rules see it; a float, a `Fraction`, a `Decimal`, a
        string or `None` is refused even when it equals a legal action."""
        if type(action) is not int:
            action = self._action_number(action)
        legal: Sequence[int] | None = self._legal_cache
        if legal is None:
            legal = self._legal_now()
        # Legal lists and chance members are ascending by contract (the battery checks): a binary search,
        # not a scan of the list.
        at = bisect_left(legal, action)
        if at == len(legal) or legal[at] != action:
            self._refuse(action)
        self._apply(action)
        self._history.append(action)
        self._legal_cache = None

    def parse_legal(self, given: object) -> int:
        """The legal action `given` names — notation or a bare number as text (`parse_action`), or an action
        number — checked against the legal list without applying it anywhere (no clone): `InvalidActionError`
        when `given` is no action at all (bad or over-long text, a number outside the action space, any other
        type: a bool, a float, None), `IllegalActionError` with the rule's reason (the message `apply_action`
        gives) for a real action that is not legal now. The state is unchanged either way."""
        number = self.parse_action(given) if isinstance(given, str) else self._action_number(given)
        return self._legal_number(number)

    def _legal_now(self) -> Sequence[int]:
        """What `apply_action` tests an action against (engine-private, only read at once): at a chance node the
        description's outcomes as it holds them (a draw pile itself, uncopied), elsewhere the legal actions."""
        player = self.current_player()
        if player == CHANCE:
            return self._chance().members()
        if player >= 0:
            return self._legal_actions()
        return []

    def _action_space(self) -> int:
        """How many numbers the current node's action space has: chance outcomes at a chance node,
        player actions elsewhere."""
        if self.current_player() == CHANCE:
            return self.game.max_chance_outcomes
        return self.game.num_distinct_actions

    def _action_number(self, action: object) -> int:
        """`action` as a plain `int` inside the action space, or `InvalidActionError` saying what an action is."""
        space = self._action_space()
        try:
            if isinstance(action, bool):
                raise TypeError("a bool is no action")
            number = int(operator.index(action))  # type: ignore[arg-type]  # any object: a non-index raises, caught below
        except Exception:
            raise InvalidActionError(
                f"an action is an integer in 0..{space - 1}, not {describe_value(action)}"
            ) from None
        if not 0 <= number < space:
            what = "chance outcome" if self.current_player() == CHANCE else "action"
            raise InvalidActionError(
                f"{describe_value(number)} is not a{'' if what == 'chance outcome' else 'n'} {what} of "
                f"{self.game.game_id}: {what}s are 0..{space - 1}"
            )
        return number

    def _refuse(self, action: object) -> None:
        """Raise the error that says why `action` (not in the legal list) is refused: `InvalidActionError`
        outside the action space, `IllegalActionError` inside it."""
        player = self.current_player()
        action = self._action_number(action)
        if player == TERMINAL:
            raise IllegalActionError("the game is over; no action is legal")
        if player == CHANCE:
            raise IllegalActionError(
                f"{action} ({self._safe_string(action)}) is not a possible chance outcome now"
            )
        raise IllegalActionError(self._illegal_reason(action))

    def _safe_string(self, action: int) -> str:
        try:
            return self.action_to_string(action)
        except ValueError:
            return str(action)

    def parse_action(self, text: object) -> int:
        """The action for `text`: a bare action number (ASCII digits, inside the current node's action
        space: chance outcomes at a chance node, player actions elsewhere) or the game's notation.

        Anything but a string, and any string longer than `MAX_ACTION_TEXT` characters, is refused with
        `InvalidActionError` before a game sees it, so every game's parser runs on short text only."""
        if not isinstance(text, str):
            raise InvalidActionError(f"action text is a string, not {describe_value(text)}")
        if len(text) > MAX_ACTION_TEXT:
            raise InvalidActionError(
                f"action text is at most {MAX_ACTION_TEXT} characters, not {len(text)}: {quote(text)}"
            )
        stripped = text.strip()
        if not stripped:
            raise InvalidActionError("empty action text")
        space = self._action_space()
        try:
            number = parse_bare_number(stripped, space)
        except ValueError as error:
            raise InvalidActionError(str(error)) from None
        if number is None:
            number = self._parse_action(stripped)
            if type(number) is not int or not 0 <= number < space:
                raise InvalidActionError(f"{quote(stripped)} names no action of {self.game.game_id} here")
        return number

    def history(self) -> list[int]:
        return list(self._history)

    def clone(self) -> State:
        other = self._copy()
        other._history = list(self._history)
        cached = self._legal_cache
        if cached is not None and self.current_player() != CHANCE:
            # A chance node's list may be the description's own (a pile of this state: `chance_outcomes`).
            other._legal_cache = cached
        return other

    def snapshot(self) -> JSON:
        """The whole state as plain JSON (dicts, lists, ints, strs, bools, floats; keys in a fixed order) that
        `game.state_from_snapshot` rebuilds exactly: the game id, its options, the history and every field
        of the position (docs/contributing/snapshot.md). A snapshot of a full state holds every hidden card:
        send a seat only the snapshot of its `determinize` sample."""
        return codec_of(self.game).encode(self)

    def __reduce_ex__(self, protocol: SupportsIndex) -> str | tuple[Any, ...]:
        """Pickling (`copy.deepcopy`, OpenSpiel's `serialize`): the game's own decoder and this state's snapshot,
        which it rebuilds exactly — compiled, a state cannot be made any other way (a native class has no
        `__new__` without its `__init__`); a game that declares no snapshot fields, field by field."""
        if type(self).snapshot_fields is None:
            return super().__reduce_ex__(protocol)
        return (state_from_snapshot, (self.game, self.snapshot()))

    def _snapshot_problem(self) -> str | None:
        """What is inconsistent in this position, read from an untrusted snapshot, beyond what the engine
        checks (types, sizes, the cards, the contract's reads): a game whose state keeps mirrors of its zones
        for speed checks that they agree. None when nothing is."""
        return None

    def fingerprint(self) -> Hashable:
        """A value equal for two states exactly when they are the same position with the same history."""
        return (tuple(self._history), repr(sorted(self.zones().items())), repr(self.position()))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return type(self) is type(other) and self.fingerprint() == other.fingerprint()

    def __hash__(self) -> int:
        return hash(self.fingerprint())

    def __str__(self) -> str:
        return f"{self.game.game_id} {self.position()}"

    # ----- what each seat sees (ARCHITECTURE.md "What each seat sees") -----------------------------------
    def observe(self, seat: object) -> JSON:
        """A JSON-ready dict of exactly what `seat` may know now; a bad seat raises `SeatError`."""
        return self._observe(self.game.check_seat(seat))

    def observe_fields(self, seat: object, fields: frozenset[str]) -> JSON:
        """The named top-level fields of `observe(seat)`, and only those (an unknown name is left out)."""
        return self._observe_fields(self.game.check_seat(seat), fields)

    def determinize(self, seat: object, rng: Rng) -> State:
        """A complete state consistent with everything `seat` has seen, hidden cards sampled with `rng`.

        It carries nothing the seat does not know: its history is empty (it starts at this position, so
        replaying it rebuilds no hidden card; no consumer needs a past, docs/bots.md), and it depends only
        on the seat's view and `rng`. A bad seat raises `SeatError`."""
        sample = self._determinize(self.game.check_seat(seat), rng)
        sample._history = []
        sample._legal_cache = None
        return sample

    def seen_action(self, action: object, seat: object) -> SeenAction:
        """What `seat` sees of `action`, a legal action or chance outcome about to be applied (call it
        before `apply_action`): the notation when the seat sees the action in full, else a phrase that
        names no hidden card ("axis deploys a card face down", "player 2 draws a card").

        `seat=None` is a spectator: the public view, what every seat sees. This is the one place that
        decides what each seat sees of each event (ARCHITECTURE.md "What each seat sees"); the terminal,
        the server and per-seat replays show moves only through it. A bad seat raises `SeatError`, an
        action that is not legal now the errors of `apply_action`."""
        viewer = None if seat is None else self.game.check_seat(seat)
        return self._seen(self._legal_number(action), viewer)

    def _legal_number(self, action: object) -> int:
        """`action` as a plain `int` when it is legal now, else the error `apply_action` raises for it."""
        number = action if type(action) is int else self._action_number(action)
        legal: Sequence[int] | None = self._legal_cache
        if legal is None:
            legal = self._legal_now()
        if number not in legal:
            self._refuse(number)
        return number

    def _seen(self, action: int, seat: int | None, notation: str | None = None) -> SeenAction:
        """`seen_action` for a legal `action` and a checked `seat`, the visibility decided once by the game's
        `_hidden_action_text` (`notation`: the action's notation when the caller has it already)."""
        actor = self.current_player()
        hidden = self._hidden_action_text(action, seat)
        if hidden is None:
            return SeenAction(actor, action, self.action_to_string(action) if notation is None else notation)
        return SeenAction(actor, None, hidden)

    def _nothing_to(self, action: int, seat: int | None) -> bool | None:
        """Hook, asked only about a step that gives `seat` (None: a spectator) no log line and leaves the seat
        to move as it was: True when legal `action` is nothing at all to the seat — its view (observation,
        legal actions) does not change either, such as another seat's face-down Deployment choice in Race to
        Messina (R31) — False when it is something (the view changes), so that `apply_logged` need not
        compare the views. The default, None, leaves it to `apply_logged`, which then compares the seat's
        views before and after. A game that answers True or False must be exact (the tests check)."""
        return None

    def _hidden_action_text(self, action: int, seat: int | None) -> str | None:
        """None when `seat` (None: a spectator) sees legal `action` in full, else what it reads instead.

        Games override this one hook with their rules' hidden plays and private draws. The default is the
        safe one: a seat sees its own actions in full and nothing else (no other seat's move, no chance
        outcome)."""
        actor = self.current_player()
        if seat is not None and actor == seat:
            return None
        if actor == CHANCE:
            return "chance acts"
        return f"{self.game.seat_names()[actor]} acts"


    # ----- what each seat reads: the game log, move labels, the result (docs/contributing/log.md) ------------
    def log_lines(self, action: object, after: Self, seat: object) -> list[LogLine]:
        """The game-log lines `seat` (None: a spectator) reads for legal `action` taken from this state,
        `after` being the state it led to (`apply_logged` makes the pair): the move in player's words as
        that seat saw it ("Axis deploys 3 cards face down", "you draw Tiger Tanks"), then any summary the
        move brought (a battle, trick, turn, round or Operation won, a score change, the game's end).

        Like `seen_action`, this is trusted game code that decides what each seat sees: no line names a
        card, count or order the seat may not know. A bad seat raises `SeatError`."""
        viewer = None if seat is None else self.game.check_seat(seat)
        number = self._action_number(action)
        return self._log_lines(number, after, viewer, self._seen(number, viewer))

    def _log_lines(self, action: int, after: Self, seat: int | None, seen: SeenAction) -> list[LogLine]:
        """Games override this with their own words (`after` is a state of the same game); `seen` is what `seat` sees of the action (`_seen`, the
        game's `_hidden_action_text` decided once), so the log never decides visibility a second time. The
        default is `seen`'s text."""
        if seen.actor == CHANCE:
            return [LogLine(seen.text, "chance", CHANCE)]
        who = "you" if seen.actor == seat else self.game.seat_names()[seen.actor]
        text = seen.text if seen.action is None else f"{who}: {seen.text}"
        return [LogLine(text, "move", seen.actor)]

    def action_label(self, action: object) -> str:
        """Legal `action` as a move list shows it to a person: the notation, with the names of the cards,
        ships or zones it mentions beside their ids ("p G07 (Tiger Tanks)"). The notation part is what
        `parse_action` reads back."""
        return self._action_label(self._action_number(action))

    def _action_label(self, action: int) -> str:
        return self.action_to_string(action)

    def result(self) -> GameResult:
        """At the end of the game: the winner(s), each seat's final score as a player reads it, and why the
        game ended as it did, citing the rule ("Axis reaches 20 PT: evacuation complete (6.2)").
        Before the end it raises `ValueError`."""
        if not self.is_terminal():
            raise ValueError("the game is not over; result() is defined only at the end")
        return self._result()

    def _result(self) -> GameResult:
        """Games override this; the default names the seats with the highest return."""
        returns = self.returns()
        best = max(returns)
        winners = tuple(seat for seat, value in enumerate(returns) if value == best)
        names = self.game.seat_names()
        return GameResult(
            winners=winners,
            scores=tuple(f"{value:g}" for value in returns),
            reason=f"highest result: {', '.join(names[seat] for seat in winners)}",
        )

    def public_view(self) -> JSON:
        """What every seat can see now — a spectator's view: JSON-ready, no card, count or order that any
        seat holds privately (the server sends it to spectators)."""
        return self._observe_public()

    def _observe_public(self) -> JSON:
        raise NotImplementedError(f"{self.game.game_id} defines no public view (_observe_public)")


def apply_logged(
    state: State, action: int, seats: Sequence[int | None], before: State | None = None
) -> dict[int | None, Seen]:
    """Apply legal `action` to `state` and return what each of `seats` (None: a spectator) sees of it: a
    `Seen` per seat — who acted, the action when the seat may know it, the text (`seen_action`), its game-log
    lines (`log_lines`) and whether the step is nothing at all to it. The one driver step the terminal, the
    server and per-seat replays share.

    One step's work, each part once: the action is checked against the legal list once (the errors of
    `apply_action`, the state unchanged; a bad seat raises `SeatError` first), each seat's visibility is
    decided once (`_hidden_action_text`) and handed to the game's log (`_log_lines`), and the state is copied
    once, before applying, for the log to read — `before`, when the caller already holds an unchanged copy of
    `state` (the server keeps one to roll back to), is read instead and left as it is.

    A step is nothing to a seat (docs/protocol.md, "Events and event streams") when it gives the seat no log
    line and leaves its view as it was: the seat to move, its observation (a spectator: the public view) and,
    when it is to move, its legal actions. Only a step without a line for the seat is looked at: a change of
    the seat to move is something; else the game may say it is nothing (`_nothing_to`, R31's face-down
    Deployment choice, or that it is something), and otherwise the two views are compared."""
    number = state._legal_number(action)
    viewers = [None if seat is None else state.game.check_seat(seat) for seat in seats]
    notation = None
    seen: dict[int | None, SeenAction] = {}
    for viewer in viewers:
        one = seen[viewer] = state._seen(number, viewer, notation)
        if one.action is not None:
            notation = one.text
    if before is None:
        before = state.clone()
    state._apply(number)
    state._history.append(number)
    state._legal_cache = None
    told: dict[int | None, Seen] = {}
    for viewer, one in seen.items():
        lines = before._log_lines(number, state, viewer, one)
        nothing = not lines and _nothing(before, number, state, viewer)
        told[viewer] = Seen(one.actor, one.action, one.text, lines, nothing)
    return told


def apply_logged_lines(state: State, action: int, seats: Sequence[int | None]) -> dict[int | None, list[LogLine]]:
    """`apply_logged`, keeping only the log lines each of `seats` reads (what the terminal and per-seat replays
    show)."""
    return {seat: seen.lines for seat, seen in apply_logged(state, action, seats).items()}


def _nothing(before: State, action: int, after: State, seat: int | None) -> bool:
    """Whether a step that gave `seat` no log line left its view as it was (`apply_logged`)."""
    if _to_move(before) != _to_move(after):
        return False
    declared = before._nothing_to(action, seat)
    if declared is not None:
        return declared
    return _view(before, seat) == _view(after, seat)


def _to_move(state: State) -> int | None:
    """The seat to move, None at a chance node or the end."""
    player = state.current_player()
    return player if player >= 0 else None


def _view(state: State, seat: int | None) -> tuple[JSON | None, int | None, list[int] | None]:
    """What a seat's view shows of `state`: its observation (a spectator: the public view, None when the game
    has none), the seat to move, and the legal actions when `seat` is that seat."""
    to_move = _to_move(state)
    legal = state.legal_actions() if seat is not None and seat == to_move else None
    if seat is not None:
        return state.observe(seat), to_move, legal
    try:
        return state.public_view(), to_move, legal
    except NotImplementedError:
        return None, to_move, legal


def describe_value(value: object) -> str:
    """A short description of a value for a message: its type and at most a short prefix of its repr (a
    huge integer by its size, since printing it would be slow or refused)."""
    if type(value) is int:
        if -(10**40) < value < 10**40:
            return str(value)
        return f"{'a negative' if value < 0 else 'an'} integer of {value.bit_length()} bits"
    if value is None:
        return "None"
    try:
        shown = repr(value)
    except Exception:
        shown = "(unprintable)"
    if len(shown) > QUOTE_LIMIT:
        shown = quote(shown)
    hint = " (text goes through parse_action)" if isinstance(value, str) else ""
    return f"the {type(value).__name__} {shown}{hint}"


def not_a_chance_node() -> ValueError:
    """The error `State.apply_chance` raises away from a chance node (a game's own `_apply_chance` raises it
    too, so the message is the same in every game)."""
    return ValueError("apply_chance: this is not a chance node")


def sample_chance(outcomes: Sequence[tuple[int, float]], u: float) -> int:
    """The outcome at cumulative probability `u` in [0, 1) — the runner's way to sample a chance node."""
    total = 0.0
    for outcome, probability in outcomes:
        total += probability
        if u < total:
            return outcome
    return outcomes[-1][0]


UNIFORM_SUMS: dict[int, list[float]] = {}
"""Per number of equally likely outcomes n: the running sums `sample_chance` forms over them, all but the last
(filled by `uniform_sums`; a game's inline draw may look them up here without the call)."""


def uniform_sums(size: int) -> list[float]:
    """The running sums `sample_chance` forms over `size` outcomes of probability `1.0 / size` each — the
    same float additions in the same order, so the same floats — all but the last (read only; made once)."""
    sums = UNIFORM_SUMS.get(size)
    if sums is None:
        sums = UNIFORM_SUMS[size] = list(accumulate(repeat(1.0 / size, size - 1)))
    return sums


UNIFORM_PAIRS: dict[int, list[tuple[int, float]]] = {}
"""Per number of equally likely outcomes n: the pairs `(outcome, 1.0 / n)` for every outcome number up to the
largest met so far, indexed by the outcome (filled by `uniform_pairs`; read only, shared by every state)."""


def uniform_pairs(size: int, outcomes: int) -> list[tuple[int, float]]:
    """The pairs `(outcome, 1.0 / size)` for outcomes `0 .. outcomes - 1` at least (`UNIFORM_PAIRS`)."""
    table = UNIFORM_PAIRS.get(size)
    if table is None or len(table) < outcomes:
        share = 1.0 / size
        table = UNIFORM_PAIRS[size] = [(outcome, share) for outcome in range(max(outcomes, 64))]
    return table


def pick_uniform(outcomes: Sequence[int], u: float) -> int:
    """`sample_chance([(o, 1.0 / n) for o in outcomes], u)` (n = len(outcomes) >= 1), by a binary search.

    `sample_chance` returns the first outcome i whose running sum S_i exceeds u, or the last when none does;
    S_i depends only on n (`uniform_sums`) and never decreases, so `bisect_right` over S_0..S_(n-2) finds
    that same i (n - 1 when u is at or above them all, NaN included)."""
    sums = UNIFORM_SUMS.get(len(outcomes))
    if sums is None:
        sums = uniform_sums(len(outcomes))
    return outcomes[bisect_right(sums, u)]


def pick_weighted(outcomes: Sequence[int], probabilities: Iterable[float], u: float) -> int:
    """`sample_chance(list(zip(outcomes, probabilities)), u)` (one probability per outcome, at least one), with
    the running sums formed in C and a binary search instead of a Python loop: the same additions in the same
    order, so the same outcome for every `u`."""
    sums = list(accumulate(probabilities))
    return outcomes[bisect_right(sums, u, 0, len(sums) - 1)]


COUNTED_MAX = 4096
"""The largest pile `pick_counted` reads by position (its margin is exact far beyond it)."""

COUNTED_MARGIN = 2.0**-20
"""How near (in pile positions) to a boundary between two positions `pick_counted` leaves `u` to the sums (a
game that inlines `pick_counted` in its draw reads it here)."""


def pick_counted(pile: Sequence[int], u: float) -> int | None:
    """At a chance node whose outcomes are the distinct entries of the sorted `pile` (one entry per physical
    card, e.g. its kind), each of probability `(1.0 / n) * copies` (n = len(pile)) in increasing order: the
    outcome `sample_chance` gives for `u`, read off the pile at position `int(u * n)` — or None when `u` is
    outside [0, 1), the pile is longer than `COUNTED_MAX`, or `u * n` lies within 2^-20 of a whole number,
    where the float running sums must decide (the caller then uses `pick_weighted`; about one draw in 500,000).

    Why it is exact: the walk returns the first outcome whose running sum S exceeds u. Each S is the exact
    copies-so-far / n within (n + 1) * 2^-52 (at most n roundings of numbers at most 1, and 1.0 / n and each
    product rounded once), and a `u` whose `u * n` is more than 2^-20 from every whole number lies more than
    (2^-20 - n * 2^-53) / n from every multiple of 1 / n, farther than that for n <= COUNTED_MAX: so u < S exactly
    when u < copies-so-far / n, i.e. when position `int(u * n)` falls among the copies counted so far."""
    n = len(pile)
    if not 0.0 <= u < 1.0 or n > COUNTED_MAX:
        return None
    x = u * n
    j = int(x)
    if COUNTED_MARGIN < x - j < 1.0 - COUNTED_MARGIN:
        return pile[j]
    return None


def state_from_snapshot(game: Game, data: object) -> State:
    """`game.state_from_snapshot(data)`: what an unpickled state is rebuilt by (`State.__reduce_ex__`), a module
    function because pickle names a function by its module and name (a compiled method has no name to give)."""
    return game.state_from_snapshot(data)


class Chance:
    """How a chance node's outcomes are drawn, and from what: the answer a game gives the engine at a chance node
    (`State._chance`). One of three shapes — `Uniform` (equally likely distinct outcomes: a pile of distinct
    cards, a die's faces), `Counted` (a pile with one entry per physical card, entries repeating: a kind drawn
    from a pile of kinds) or `Weighted` (explicit pairs) — from which the engine derives everything else.

    Not an `ABC`: compiled, `isinstance` of a game's own subclass (Naval War's `DrawPile`) against an
    `ABCMeta` class answered wrongly (docs/contributing/speed.md, "The compiled core"); the methods below are
    still marked abstract for the reader and the type checker."""

    __slots__ = ()

    @abstractmethod
    def pairs(self) -> list[tuple[int, float]]:
        """`chance_outcomes()`: a fresh list of (outcome, probability), ascending by outcome."""

    def pairs_and_numbers(self) -> tuple[list[tuple[int, float]], list[int]]:
        """`(pairs(), numbers())` in one call: what `chance_outcomes()` hands out and what it keeps as the legal
        list (a description may form both in one go)."""
        return self.pairs(), self.numbers()

    @abstractmethod
    def numbers(self) -> list[int]:
        """The legal list at this node: a fresh ascending list of the distinct outcomes."""

    @abstractmethod
    def members(self) -> Sequence[int]:
        """A sequence holding exactly the outcomes (each at least once), only read at once: `apply_action`'s test."""

    @abstractmethod
    def pick(self, u: float) -> int:
        """The outcome at cumulative probability `u`: `sample_chance(self.pairs(), u)`, without the pairs."""


class Uniform(Chance):
    """Distinct outcomes, ascending, each of probability `1.0 / len(outcomes)` (a pile of distinct cards, a die).
    The sequence is held, not copied: the game makes a new description at each chance node."""

    __slots__ = ("outcomes",)

    def __init__(self, outcomes: Sequence[int]) -> None:
        self.outcomes = outcomes

    def pairs(self) -> list[tuple[int, float]]:
        return self.pairs_and_numbers()[0]

    def numbers(self) -> list[int]:
        return list(self.outcomes)

    def pairs_and_numbers(self) -> tuple[list[tuple[int, float]], list[int]]:
        outcomes = self.outcomes  # both in one call: `chance_outcomes()` asks at every chance node
        size = len(outcomes)
        table = UNIFORM_PAIRS.get(size)
        top = outcomes[-1]
        if table is None or len(table) <= top:
            table = uniform_pairs(size, top + 1)
        # The outcomes themselves as the numbers when they are a list (read only, until the next step).
        numbers: list[int] = outcomes if type(outcomes) is list else list(outcomes)
        # The tuples made once, gathered by outcome. The rows typed `Any`: compiled, a row read as a
        # `tuple[int, float]` is unpacked and packed again (three times the gather's time).
        rows: list[Any] = table
        return [rows[outcome] for outcome in numbers], numbers

    def members(self) -> Sequence[int]:
        return self.outcomes

    def __reduce__(self) -> tuple[type[Chance], tuple[object, ...]]:
        """Pickled as the constructor and its outcomes (a game may hold one, and a process pool sends games):
        compiled, a description cannot be made without its `__init__`."""
        return (Uniform, (self.outcomes,))

    def pick(self, u: float) -> int:
        outcomes = self.outcomes
        sums = UNIFORM_SUMS.get(len(outcomes))  # `pick_uniform`, inline: this runs at every draw
        if sums is None:
            sums = uniform_sums(len(outcomes))
        return outcomes[bisect_right(sums, u)]


class Counted(Chance):
    """An ascending pile with one entry per physical card, entries repeating (e.g. each card's kind): the
    outcomes are its distinct entries, each of probability `(1.0 / len(pile)) * copies` — the floats
    `pick_counted` assumes. The pile is held, not copied."""

    __slots__ = ("pile",)

    def __init__(self, pile: Sequence[int]) -> None:
        self.pile = pile

    def counts(self) -> tuple[list[int], list[int]]:
        """The distinct entries, ascending, and the copies of each."""
        pile = self.pile
        outcomes: list[int] = []
        copies: list[int] = []
        for entry, group in groupby(pile):
            outcomes.append(entry)
            copies.append(sum(1 for _ in group))
        return outcomes, copies

    def pairs(self) -> list[tuple[int, float]]:
        outcomes, copies = self.counts()
        share = 1.0 / len(self.pile)
        return [(outcome, share * count) for outcome, count in zip(outcomes, copies, strict=True)]

    def numbers(self) -> list[int]:
        return sorted(set(self.pile))

    def members(self) -> Sequence[int]:
        return self.pile

    def __reduce__(self) -> tuple[type[Chance], tuple[object, ...]]:
        """Pickled as the constructor and its pile (`Uniform.__reduce__`)."""
        return (Counted, (self.pile,))

    def pick(self, u: float) -> int:
        picked = pick_counted(self.pile, u)
        if picked is not None:
            return picked
        outcomes, copies = self.counts()
        share = 1.0 / len(self.pile)
        return pick_weighted(outcomes, [share * count for count in copies], u)


class Weighted(Chance):
    """Explicit (outcome, probability) pairs, ascending by outcome."""

    __slots__ = ("outcome_pairs",)

    def __init__(self, outcome_pairs: Sequence[tuple[int, float]]) -> None:
        self.outcome_pairs = outcome_pairs

    def pairs(self) -> list[tuple[int, float]]:
        return list(self.outcome_pairs)

    def numbers(self) -> list[int]:
        return [outcome for outcome, _ in self.outcome_pairs]

    def members(self) -> Sequence[int]:
        return self.numbers()

    def pick(self, u: float) -> int:
        return sample_chance(self.outcome_pairs, u)

    def __reduce__(self) -> tuple[type[Chance], tuple[object, ...]]:
        """Pickled as the constructor and its pairs (`Uniform.__reduce__`)."""
        return (Weighted, (self.outcome_pairs,))


@dataclass(frozen=True, slots=True)
class SeenAction:
    """What one seat sees of one action (`State.seen_action`): who acted (a seat or `CHANCE`), the action
    when the seat may know it (None when it may not), and the text the seat reads."""

    actor: int
    action: int | None
    text: str

    def __reduce__(self) -> tuple[type[SeenAction], tuple[object, ...]]:
        """Pickled as the constructor and its fields: compiled, a frozen dataclass cannot be rebuilt the default
        way (it sets each field on a blank object and fails)."""
        return (SeenAction, (self.actor, self.action, self.text))


@dataclass(frozen=True, slots=True)
class Seen:
    """What one seat (or a spectator) sees of one applied step (`apply_logged`): who acted (a seat or
    `CHANCE`), the action when the seat may know it (None when it may not), the text it reads (`seen_action`),
    its game-log lines (`log_lines`), and whether the step is nothing at all to it — no line and the same
    view before and after, like another seat's face-down Deployment choice in Race to Messina (R31): such a
    step stays out of the seat's event stream (docs/protocol.md)."""

    actor: int
    action: int | None
    text: str
    lines: list[LogLine]
    nothing: bool

    def __reduce__(self) -> tuple[type[Seen], tuple[object, ...]]:
        """Pickled as the constructor and its fields (`SeenAction.__reduce__`)."""
        return (Seen, (self.actor, self.action, self.text, self.lines, self.nothing))


@dataclass(frozen=True, slots=True)
class LogLine:
    """One line of a seat's game log (`State.log_lines`): the text in player's words, its kind — `move`
    (a seat's action), `chance` (a draw or roll as the seat saw it) or `summary` (a battle, trick, turn,
    round or Operation result, a score change, the end) — and who acted (a seat, `CHANCE`, or None for a
    summary)."""

    text: str
    kind: str
    actor: int | None

    def __reduce__(self) -> tuple[type[LogLine], tuple[object, ...]]:
        """Pickled as the constructor and its fields (`SeenAction.__reduce__`)."""
        return (LogLine, (self.text, self.kind, self.actor))


@dataclass(frozen=True, slots=True)
class GameResult:
    """The end of a game as a player reads it (`State.result`): the winning seats (more than one on a
    shared win), each seat's final score in the game's own terms ("38 VP", "10 PT", "2 battles"), and the
    reason, citing the rule."""

    winners: tuple[int, ...]
    scores: tuple[str, ...]
    reason: str

    def __reduce__(self) -> tuple[type[GameResult], tuple[object, ...]]:
        """Pickled as the constructor and its fields (`SeenAction.__reduce__`)."""
        return (GameResult, (self.winners, self.scores, self.reason))
