"""The match runner: plays agents against each other, samples chance from a seeded RNG, keeps a record.

A `MatchRecord` (game id, options, seed, actions, returns, engine version) replays exactly, and is bound to
its seed: every chance outcome in it is the one `chance_rng(seed)` gives at that chance node, drawn in order
with `state.sample_outcome(rng.random())` (the outcome `sample_chance(state.chance_outcomes(), u)` gives) —
the only way `play_match` (and so `simulate` and tournaments) draws chance. `replay` re-applies every action to a fresh state, re-derives each chance outcome from the
seed, checks that each action is legal and that the returns agree, and raises `RecordError` (a
`WarcardsError`) naming the first thing that differs, so a changed seed or a forged deal is refused.
`read_record_values` reads a record file (one JSON record, a JSON array, or JSONL) for the command line.

A `PlayRecord` is the record of a game people play (`warcards play --out`), written as it goes: it names
the people's seats, and its `returns` stay empty until the end, so an unfinished game is a record too —
`replay` checks that it is indeed not over. `follow` re-applies a record's actions with the same checks and
hands back the state, the chance RNG where it stands and each seat's log: how a game is resumed, undone and
shown (`warcards replay --show`).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from warcards._version import __version__
from warcards.bots import make_agent
from warcards.engine.agents import Agent, SeatView
from warcards.engine.api import CHANCE, Game, LogLine, Seen, State, apply_logged
from warcards.engine.errors import WarcardsError
from warcards.engine.options import PATH_QUOTE
from warcards.engine.registry import load_game
from warcards.engine.text import quote

FiniteFloat = Annotated[float, Field(strict=True, allow_inf_nan=False)]


class RecordError(WarcardsError):
    """A game record is malformed, or does not replay as it claims (a changed seed, a forged action)."""


class MatchRecord(BaseModel):
    """Everything needed to replay one game exactly. Every field is checked strictly (actions are JSON
    integers, returns finite numbers) and unknown fields are refused."""

    model_config = ConfigDict(extra="forbid")

    game: StrictStr
    options: dict[str, Any]
    seed: StrictInt
    actions: list[StrictInt]
    returns: list[FiniteFloat]
    agents: list[StrictStr] = Field(default_factory=list)
    engine_version: StrictStr = __version__
    names: list[StrictStr | None] = Field(default_factory=list)
    """The seats' display names when people played under names (a `warcards serve` table); the replay
    itself reads only seat numbers."""

    def finished(self) -> bool:
        """Whether the record claims a whole game (a `MatchRecord` always does)."""
        return True


class PlayRecord(MatchRecord):
    """A game people played against bots (`warcards play --out`), written as it goes: `humans` are the
    seats people played (their `agents` entry is `human`); `returns` stays empty until the game is over,
    and `replay` checks that claim too (an empty `returns` on a finished game, or returns on an unfinished
    one, is refused)."""

    humans: list[StrictInt]

    def finished(self) -> bool:
        return bool(self.returns)


HUMAN = "human"
"""The `agents` entry of a seat a person played (`PlayRecord`)."""


def record_model(data: Any) -> type[MatchRecord]:
    """The record class parsed JSON claims to be: a `PlayRecord` when it names `humans`, else a
    `MatchRecord` (a tournament's records are told apart by the arena)."""
    return PlayRecord if isinstance(data, dict) and "humans" in data else MatchRecord


RecordT = TypeVar("RecordT", bound=MatchRecord)


def validation_message(error: ValidationError, limit: int = 3) -> str:
    """A pydantic error as one short line: the first fields that are wrong and why (never the input)."""
    problems = error.errors(include_url=False, include_input=False, include_context=False)
    parts = []
    for problem in problems[:limit]:
        where = ".".join(str(part) for part in problem["loc"]) or "record"
        parts.append(f"{quote(where)}: {problem['msg']}")
    more = f" (and {len(problems) - limit} more)" if len(problems) > limit else ""
    return "; ".join(parts) + more


def parse_record(data: Any, where: str, model: type[RecordT]) -> RecordT:
    """`data` (parsed JSON) as a record of `model`, or `RecordError` saying at `where` which field is wrong."""
    if not isinstance(data, dict):
        raise RecordError(f"{where}: a record is a JSON object, not {type(data).__name__}")
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise RecordError(f"{where}: not a game record: {validation_message(error)}") from None


def read_record_values(path: Path) -> Iterator[tuple[str, Any]]:
    """The parsed JSON of each record in a file, with where it is (`FILE line N`, `FILE item N`).

    The file holds JSON Lines (one record a line, as `simulate --out` and `tournament --out` write them;
    blank lines are skipped), or one JSON value over several lines: a record, or an array of records.
    Raises `RecordError` for a file that is empty, not UTF-8, or not valid JSON (a truncated array or
    line), naming the line. Only regular files are read (a folder or a pipe is refused)."""
    name = quote(str(path), PATH_QUOTE)
    if not path.is_file():
        raise RecordError(f"{name} is not a regular file" if path.exists() else f"{name} does not exist")
    first = ""
    with path.open("rb") as handle:
        for raw in handle:
            first = _utf8(raw, f"{name} line 1").strip()
            if first:
                break
    if not first:
        raise RecordError(f"{name} is empty: it holds no game records")
    if first.startswith("[") or first == "{":
        yield from _whole_file(path, name)
        return
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            line = _utf8(raw, f"{name} line {number}")
            if not line.strip():
                continue
            try:
                value = json_value(line)
            except ValueError as error:
                raise RecordError(
                    f"{name} line {number} is not a complete JSON record (truncated?): {_json_problem(error)}"
                ) from None
            yield f"{name} line {number}", value


def _whole_file(path: Path, name: str) -> Iterator[tuple[str, Any]]:
    try:
        value = json_value(_utf8(path.read_bytes(), name))
    except ValueError as error:
        raise RecordError(f"{name} is not valid JSON (truncated?): {_json_problem(error)}") from None
    if isinstance(value, list):
        if not value:
            raise RecordError(f"{name} holds an empty JSON array: no game records")
        for number, item in enumerate(value, start=1):
            yield f"{name} item {number}", item
    else:
        yield name, value


def json_value(text: str) -> Any:
    """`json.loads`, with JSON nested too deeply for the parser refused as a `ValueError` like any other."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


def _utf8(data: bytes, where: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RecordError(f"{where} is not UTF-8 text (byte {error.start})") from None


def _json_problem(error: ValueError) -> str:
    if isinstance(error, json.JSONDecodeError):
        return f"{error.msg} at line {error.lineno} column {error.colno}"
    return quote(str(error), 80)


def derive_seed(master: int, *parts: object) -> int:
    """A per-game or per-agent seed derived from a master seed, independent of process layout."""
    text = ":".join(str(p) for p in (master, *parts)).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


def chance_rng(seed: int) -> random.Random:
    """The RNG that samples a match's chance nodes (separate from every agent's RNG)."""
    return random.Random(derive_seed(seed, "chance"))


def step_chance(state: State, rng: random.Random) -> int:
    """Sample and apply one chance outcome; returns it."""
    return state.apply_chance(rng.random())


def play_match(
    game: Game | str,
    agents: Sequence[Agent | str],
    seed: int,
    max_actions: int | None = None,
) -> MatchRecord:
    """Play one game. `agents` holds one agent (or bot name) per seat; names get per-seat derived seeds."""
    if isinstance(game, str):
        game = load_game(game)
    if len(agents) != game.num_players:
        raise ValueError(f"{game.game_id} needs {game.num_players} agents, got {len(agents)}")
    seated: list[Agent] = [
        make_agent(a, game, seat, derive_seed(seed, "agent", seat)) if isinstance(a, str) else a
        for seat, a in enumerate(agents)
    ]
    state = game.new_initial_state()
    rng = chance_rng(seed)
    limit = max_actions if max_actions is not None else game.max_game_length
    steps = 0
    while not state.is_terminal():
        if steps >= limit:
            raise RuntimeError(f"{game.game_id}: no end after {limit} actions (seed {seed})")
        player = state.current_player()
        if player == CHANCE:
            step_chance(state, rng)
        else:
            state.apply_action(seated[player].step(SeatView(state, player)))
        steps += 1
    return MatchRecord(
        game=game.game_id,
        options=game.options,
        seed=seed,
        actions=state.history(),
        returns=state.returns(),
        agents=[getattr(a, "name", type(a).__name__) for a in seated],
    )


def replay(record: MatchRecord | dict[str, Any]) -> State:
    """Re-play a record on a fresh game and return the final state; `RecordError` where it differs.

    Checks, in order: every field has its type (the record is validated again, so a record changed after
    it was made, or given as a dict of parsed JSON, is checked too); the game and its options load; `returns` (and `agents`, when given) have one entry
    per seat; every chance outcome is the one the record's seed gives (`chance_rng(seed)`, sampled as
    `play_match` samples it); every other action is legal when it is taken; the game ends exactly at the
    last action; the returns agree. An unfinished `PlayRecord` (no returns yet) must end where the game
    is not over."""
    if isinstance(record, MatchRecord):
        record = parse_record(dict(record), "the record", type(record))
    else:
        record = parse_record(record, "the record", record_model(record))
    game = record_game(record)
    state = follow(game, record.seed, record.actions).state
    if not record.finished():
        if state.is_terminal():
            raise RecordError(f"the game is over after {len(record.actions)} actions but the record has no returns")
        return state
    if not state.is_terminal():
        raise RecordError(f"replay ends after {len(record.actions)} actions but the game is not over")
    if [round(r, 9) for r in state.returns()] != [round(r, 9) for r in record.returns]:
        raise RecordError(f"replay returns {state.returns()} differ from the record's {record.returns}")
    return state


def record_game(record: MatchRecord) -> Game:
    """The game a record names, with its options; `RecordError` when it cannot be loaded or the record's
    per-seat lists (`returns`, `agents`, a `PlayRecord`'s `humans`) do not fit its seats."""
    try:
        game = load_game(record.game, **record.options)
    except WarcardsError as error:
        raise RecordError(f"the record's game cannot be loaded: {error}") from None
    seats = game.num_players
    if record.finished() and len(record.returns) != seats:
        raise RecordError(f"the record has {len(record.returns)} returns; {game.game_id} here has {seats} seats")
    if record.agents and len(record.agents) != seats:
        raise RecordError(f"the record names {len(record.agents)} agents; {game.game_id} here has {seats} seats")
    if isinstance(record, PlayRecord):
        bad = [seat for seat in record.humans if not 0 <= seat < seats]
        if bad or len(set(record.humans)) != len(record.humans):
            raise RecordError(
                f"the record's humans {record.humans} are not distinct seats of {game.game_id} (0 to {seats - 1})"
            )
    return game


Step = dict[int | None, Seen]
"""One step as each asked-for seat (None: a spectator) saw it (`apply_logged`): its log lines, and whether the
step was nothing at all to it."""


@dataclass
class Followed:
    """A game re-applied from its seed and actions (`follow`)."""

    state: State
    """The state after the actions."""
    rng: random.Random
    """The chance RNG, ready for the next chance node."""
    actors: list[int]
    """Who took each action: a seat, or `CHANCE`."""
    steps: list[Step]
    """Per action, what each asked-for seat saw of it (empty when no seat was asked for)."""


def follow(game: Game, seed: int, actions: Sequence[int], seats: Sequence[int | None] = ()) -> Followed:
    """Re-apply `actions` to a fresh state of `game`, checking each chance outcome against the seed and
    each other action's legality (`RecordError` at the first that differs, or at an action after the end),
    keeping who acted and, for each of `seats`, what it saw of each step (`apply_logged`). How `replay`
    checks a record, and how `warcards play` resumes, undoes and shows a game."""
    followed = Followed(game.new_initial_state(), chance_rng(seed), [], [])
    for _ in _follow_steps(followed, seed, actions, seats, labels=False):
        pass
    return followed


def _follow_steps(
    followed: Followed, seed: int, actions: Sequence[int], seats: Sequence[int | None], labels: bool
) -> Iterator[str | None]:
    """`follow`, one action at a time: after each, `followed` holds the state, actor and log lines so far;
    yields the action's `action_label` (taken before it was applied) when `labels`, else None."""
    state, rng, actors, steps = followed.state, followed.rng, followed.actors, followed.steps
    for index, action in enumerate(actions):
        if state.is_terminal():
            raise RecordError(f"the game ends after {index} actions but the record has {len(actions)}")
        actor = state.current_player()
        if actor == CHANCE:
            expected = state.sample_outcome(rng.random())
            if action != expected:
                raise RecordError(
                    f"action {index} is a chance outcome the seed {seed} does not give: the record has "
                    f"{_describe(state, action)}, the seed gives {_describe(state, expected)}"
                )
        try:
            label = state.action_label(action) if labels else None
            if seats:
                steps.append(apply_logged(state, action, seats))
            else:
                state.apply_action(action)
        except ValueError as error:
            raise RecordError(f"replay diverges at action {index} ({_number(action)}): {error}") from None
        actors.append(actor)
        yield label


@dataclass(frozen=True)
class ShownStep:
    """One action of a game as a replay shows it (`shown_steps`): who took it (a seat or `CHANCE`), the log
    lines shown for it, and whether it was nothing at all to the seat (`Seen.nothing`: no line and the same
    view; the server's event stream of that seat left it out)."""

    actor: int
    lines: list[LogLine]
    unseen: bool = False


def shown_steps(game: Game, seed: int, actions: Sequence[int], seat: int | None) -> Iterator[tuple[ShownStep, State]]:
    """A game re-applied as `follow` checks it, one action at a time, each with the state after it (read it
    before asking for the next step): as `seat` read it (its log lines, `apply_logged`), or with `seat`
    None — only for a finished game — every action in full ("who: label", `action_label`, hidden cards
    included) with the public summaries. How `warcards replay --show` prints a game and the server's
    replay route (`warcards.server.replays`) serves it."""
    followed = Followed(game.new_initial_state(), chance_rng(seed), [], [])
    names = game.seat_names()
    for label in _follow_steps(followed, seed, actions, [seat], labels=seat is None):
        actor = followed.actors[-1]
        seen = followed.steps[-1][seat]
        if seat is None:
            who = "chance" if actor == CHANCE else names[actor]
            move = LogLine(f"{who}: {label}", "chance" if actor == CHANCE else "move", actor)
            yield ShownStep(actor, [move, *(line for line in seen.lines if line.kind == "summary")]), followed.state
        else:
            yield ShownStep(actor, seen.lines, seen.nothing), followed.state


def _describe(state: State, action: int) -> str:
    """An action as `17 (deal X01 to axis)`, or the bare number if the game cannot name it."""
    try:
        return f"{_number(action)} ({quote(state.action_to_string(action), 60)})"
    except (ValueError, IndexError, KeyError):
        return _number(action)


def _number(value: int) -> str:
    """An integer for a message, however large (Python refuses to print ints over 4,300 digits)."""
    return str(value) if value.bit_length() <= 64 else f"an integer of {value.bit_length()} bits"
