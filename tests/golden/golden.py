"""Golden seeded games: recorded playouts that pin every game's behaviour across a refactor (issue 22).

For every registered game and every option set of its conformance battery, `SEEDS` games are played by
the uniform random policy below, and a few per game by the heuristic bot in every seat (`play_match`).
Each record keeps the game, the options, the seed, the action list, the returns and, at every
`CHECKPOINT_EVERY`-th state and at the terminal state, digests of the position, the zones and every
seat's view. `check_record` replays a record on a fresh state and names the first state where anything
differs; `first_difference` compares two records of the same game.

The random policy (`random_action`) draws exactly one `rng.random()` per action from one
`random.Random(seed)`, in the order of the actions: at a chance node the outcome is
`sample_chance(state.chance_outcomes(), u)`, at a decision node it is `legal[int(u * len(legal))]` of
the sorted legal actions (uniform up to float resolution; no draw depends on `randrange`'s internals).

A checkpoint is the list `[index, position, zones, view_0, view_1, ...]`: `index` is the number of
actions applied so far (0, 20, 40, ... and the terminal state's), each other entry the first
`HASH_CHARS` hex digits of the sha256 of the canonical JSON (`json.dumps(value, sort_keys=True,
separators=(",", ":"))`) of `state.position()`, `state.zones()` and `state.observe(seat)`.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import warcards
from warcards.engine.api import CHANCE, Game, State, sample_chance
from warcards.engine.registry import conformance_configs, is_variant_config, load_game

DATA_DIR = Path(__file__).parent / "data"
RECORD_COMMAND = "python3 scripts/record_golden.py"
FORMAT = 1
SEEDS = (0, 1, 2)
BOT_SEEDS = (0, 1)
BOT = "heuristic"
RANDOM = "random"
CHECKPOINT_EVERY = 20
HASH_CHARS = 16

Record = dict[str, Any]
Checkpoint = list[Any]


def canonical(value: Any) -> str:
    """The canonical JSON text of a JSON-ready value: sorted keys, no spaces."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def digest(value: Any) -> str:
    """The first `HASH_CHARS` hex digits of the sha256 of `value`'s canonical JSON."""
    return hashlib.sha256(canonical(value).encode()).hexdigest()[:HASH_CHARS]


def checkpoint(state: State, index: int) -> Checkpoint:
    """`[index, position, zones, view of seat 0, view of seat 1, ...]` digests of `state`."""
    seats = range(state.game.num_players)
    return [
        index,
        digest(state.position()),
        digest(state.zones()),
        *(digest(state.observe(s)) for s in seats),
    ]


def is_checkpoint(index: int, state: State) -> bool:
    return index % CHECKPOINT_EVERY == 0 or state.is_terminal()


def component_name(position: int) -> str:
    """What entry `position` (1 or more) of a checkpoint digests."""
    if position == 1:
        return "the position"
    if position == 2:
        return "the zones"
    return f"seat {position - 3}'s view"


def digest_differs(position: int) -> str:
    return f"the digest of {component_name(position)} differs"


def random_action(state: State, rng: random.Random) -> int:
    """The random policy's next action: one `rng.random()` draw, chance or decision alike."""
    u = rng.random()
    if state.current_player() == CHANCE:
        return sample_chance(state.chance_outcomes(), u)
    legal = state.legal_actions()
    return legal[int(u * len(legal))]


def play_random(game_id: str, options: dict[str, Any], seed: int) -> Record:
    """One game of the random policy seeded with `seed`, with its checkpoints."""
    game = load_game(game_id, **options)
    state = game.new_initial_state()
    rng = random.Random(seed)
    checkpoints: list[Checkpoint] = []
    index = 0
    while True:
        if is_checkpoint(index, state):
            checkpoints.append(checkpoint(state, index))
        if state.is_terminal():
            break
        if index >= game.max_game_length:
            raise RuntimeError(f"{game_id} {options} seed {seed}: no end after {index} actions")
        state.apply_action(random_action(state, rng))
        index += 1
    return _record(game_id, options, seed, RANDOM, state, checkpoints)


def play_bots(game_id: str, options: dict[str, Any], seed: int) -> Record:
    """One `play_match` of the heuristic bot in every seat, with the checkpoints of a replay."""
    game = load_game(game_id, **options)
    match = warcards.play_match(game, [BOT] * game.num_players, seed)
    state = game.new_initial_state()
    checkpoints: list[Checkpoint] = []
    for index, action in enumerate(match.actions):
        if is_checkpoint(index, state):
            checkpoints.append(checkpoint(state, index))
        state.apply_action(action)
    checkpoints.append(checkpoint(state, len(match.actions)))
    return _record(game_id, options, seed, BOT, state, checkpoints)


def _record(
    game_id: str, options: dict[str, Any], seed: int, agents: str, state: State, checkpoints: list[Checkpoint]
) -> Record:
    return {
        "game": game_id,
        "options": options,
        "seed": seed,
        "agents": agents,
        "actions": state.history(),
        "returns": state.returns(),
        "checkpoints": checkpoints,
    }


def bot_configs(game_id: str) -> list[dict[str, Any]]:
    """The option sets the bot games use: the smallest plain variant (fewest seats) and the largest
    (most seats, then the longest game), once each."""
    configs = conformance_configs(game_id)
    plain = [c for c in configs if is_variant_config(game_id, c)] or configs
    games: list[tuple[Game, dict[str, Any]]] = [(load_game(game_id, **c), c) for c in plain]
    smallest = min(games, key=lambda pair: pair[0].num_players)[1]
    largest = max(games, key=lambda pair: (pair[0].num_players, pair[0].max_game_length))[1]
    return [smallest] if largest == smallest else [smallest, largest]


def cases(game_id: str, seeds: tuple[int, ...] = SEEDS) -> Iterator[tuple[dict[str, Any], int, str]]:
    """Every (options, seed, agents) recorded for a game, in recording order."""
    for options in conformance_configs(game_id):
        for seed in seeds:
            yield options, seed, RANDOM
    for options in bot_configs(game_id):
        for seed in BOT_SEEDS:
            yield options, seed, BOT


def record_game(game_id: str, games: int = len(SEEDS)) -> list[Record]:
    """The golden records of a game: `games` random games (seeds 0..games-1) per conformance option set,
    then the bot games."""
    return [
        play_random(game_id, options, seed) if agents == RANDOM else play_bots(game_id, options, seed)
        for options, seed, agents in cases(game_id, tuple(range(games)))
    ]


def record_key(options: dict[str, Any], seed: int, agents: str) -> str:
    return f"{agents} {canonical(options)} seed {seed}"


def config_id(options: dict[str, Any]) -> str:
    return "-".join(f"{k}={v}" for k, v in options.items()) or "default"


def describe(record: Record) -> str:
    return f"{record['game']} {config_id(record['options'])} seed {record['seed']} ({record['agents']})"


def data_path(game_id: str, data_dir: Path = DATA_DIR) -> Path:
    return data_dir / f"{game_id}.json"


def dump_records(game_id: str, records: list[Record]) -> str:
    """A game's data file: one JSON object, sorted keys, one record per line."""
    header = canonical({"checkpoint_every": CHECKPOINT_EVERY, "format": FORMAT, "game": game_id})[:-1]
    lines = ",\n".join(canonical(record) for record in records)
    return f'{header},"games":[\n{lines}\n]}}\n'


def load_records(game_id: str, data_dir: Path = DATA_DIR) -> dict[str, Record]:
    """A game's recorded games by `record_key`; `FileNotFoundError` naming the command when missing."""
    path = data_path(game_id, data_dir)
    if not path.exists():
        raise FileNotFoundError(
            f"{path} is missing: record the golden games with `{RECORD_COMMAND}` (on main, before the "
            "refactor) and commit tests/golden/data/"
        )
    data = json.loads(path.read_text())
    if data.get("format") != FORMAT or data.get("checkpoint_every") != CHECKPOINT_EVERY:
        raise ValueError(f"{path}: format {data.get('format')}, expected {FORMAT}; re-record it")
    return {record_key(r["options"], r["seed"], r["agents"]): r for r in data["games"]}


def _same_returns(a: list[float], b: list[float]) -> bool:
    return len(a) == len(b) and all(abs(x - y) <= 1e-9 for x, y in zip(a, b, strict=True))


def check_record(record: Record) -> str | None:
    """Replay `record`'s actions on a fresh state: the first difference (digests at its checkpoints, the
    random policy's choice, a refused action, the end, the returns), or None when it replays identically.
    A bot record is then played again with `play_match` and its actions compared."""
    game = load_game(record["game"], **record["options"])
    state = game.new_initial_state()
    rng = random.Random(record["seed"]) if record["agents"] == RANDOM else None
    expected = {cp[0]: cp for cp in record["checkpoints"]}
    actions: list[int] = record["actions"]
    where = describe(record)
    for index in range(len(actions) + 1):
        if index in expected:
            difference = _checkpoint_difference(expected[index], checkpoint(state, index))
            if difference:
                return f"{where}: state {index}: {difference}"
        elif is_checkpoint(index, state):
            return f"{where}: state {index} is {'terminal' if state.is_terminal() else 'a checkpoint'} now"
        if index == len(actions):
            break
        if state.is_terminal():
            return f"{where}: the game ends after {index} actions; the record has {len(actions)}"
        action = actions[index]
        if rng is not None:
            chosen = random_action(state, rng)
            if chosen != action:
                return (
                    f"{where}: state {index}: the random policy picks {chosen}, the record has {action} "
                    f"(legal now: {_short(state.legal_actions())})"
                )
        try:
            state.apply_action(action)
        except ValueError as error:
            return f"{where}: state {index}: the recorded action {action} is refused: {error}"
    if not state.is_terminal():
        return f"{where}: the game is not over after the record's {len(actions)} actions"
    if not _same_returns(state.returns(), record["returns"]):
        return f"{where}: returns {state.returns()}, the record has {record['returns']}"
    if record["agents"] == BOT:
        match = warcards.play_match(game, [BOT] * game.num_players, record["seed"])
        at = _first_divergence(actions, match.actions)
        if at is not None:
            return f"{where}: play_match diverges at state {at}: {_at(match.actions, at)}, record {_at(actions, at)}"
    return None


def first_difference(stored: Record, fresh: Record) -> str | None:
    """The first difference between a stored record and a fresh one of the same case: the earliest
    differing checkpoint (naming the digest) or action, then the returns."""
    where = describe(stored)
    stored_cps = {cp[0]: cp for cp in stored["checkpoints"]}
    fresh_cps = {cp[0]: cp for cp in fresh["checkpoints"]}
    first_cp: tuple[int, str] | None = None
    for index in sorted(stored_cps.keys() | fresh_cps.keys()):
        old, new = stored_cps.get(index), fresh_cps.get(index)
        if old is None or new is None:
            difference: str | None = (
                "a checkpoint now only" if old is None else "a checkpoint in the record only"
            )
        else:
            difference = _checkpoint_difference(old, new)
        if difference:
            first_cp = (index, difference)
            break
    at = _first_divergence(stored["actions"], fresh["actions"])
    if first_cp is not None and (at is None or first_cp[0] <= at):
        return f"{where}: state {first_cp[0]}: {first_cp[1]}"
    if at is not None:
        return (
            f"{where}: state {at}: action {_at(fresh['actions'], at)} now, the record has "
            f"{_at(stored['actions'], at)}"
        )
    if not _same_returns(stored["returns"], fresh["returns"]):
        return f"{where}: returns {fresh['returns']}, the record has {stored['returns']}"
    return None


def _checkpoint_difference(expected: Checkpoint, actual: Checkpoint) -> str | None:
    if len(expected) != len(actual):
        return f"{len(actual) - 3} seats now, {len(expected) - 3} recorded"
    for position in range(1, len(expected)):
        if expected[position] != actual[position]:
            return digest_differs(position)
    return None


def _first_divergence(a: list[int], b: list[int]) -> int | None:
    for index, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return index
    return None if len(a) == len(b) else min(len(a), len(b))


def _at(actions: list[int], index: int) -> str:
    return str(actions[index]) if index < len(actions) else "the end"


def _short(actions: list[int]) -> str:
    return str(actions) if len(actions) <= 12 else f"{actions[:12]} and {len(actions) - 12} more"
