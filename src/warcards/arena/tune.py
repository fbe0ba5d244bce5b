"""`warcards tune`: search a game's rule parameters for a balanced setting with Optuna (docs/tuning.md).

A search space file (TOML) names the game and its fixed options, the bot in every seat, the parameters to
vary (a range or a list of choices each) and the objectives. Each trial plays the same seeded games (common
random numbers: two settings are compared on the same deals) through the tournament runner — a process pool,
or Ray — in batches; a trial whose running intervals show it clearly off is pruned. The study lives in an
Optuna RDB storage (SQLite in the output folder by default, PostgreSQL for many machines), so a killed run
resumes where it was and several workers can share one study. The report re-simulates the best settings on
fresh seeds, beside the rule text's, with 95% intervals, and names the smallest change that reaches the target.

Objectives (all minimised):
- `balance`: the largest distance of any seat's win share from the even share (1/seats);
- `first_player`: the distance of seat 0's win share from the even share;
- `length`: the distance of the median game length (actions) from `length_target`, as a fraction of it;
- `card_impact`: the largest impact of a card on its player's win share (`warcards.arena.tune_cards`).

Card fields (`[cards.X01] force = {low = 1, high = 5}`) are searched beside the parameters: each trial plays
a card file written with its values. `card_impact_limit` makes "no card moves the win share by more than X" a
constraint instead of an objective. `bots` seats a bot per seat instead of `bot` in every seat.
"""

from __future__ import annotations

import math
import statistics
import time
import tomllib
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from warcards.arena.tournament import Backend, GameTask, TournamentRecord, TournamentSpec, task_at
from warcards.arena.tune_cards import (
    CardFieldError,
    CardImpact,
    card_defaults,
    card_rows,
    dump_toml,
    split_setting,
    with_card_values,
    write_card_file,
)
from warcards.engine.cards import file_label, read_toml
from warcards.engine.errors import WarcardsError
from warcards.engine.params import ParamSpec
from warcards.engine.text import quote
from warcards.match import derive_seed
from warcards.simulate import wilson_interval, win_shares

OBJECTIVES = ("balance", "first_player", "length", "card_impact")

HEARTBEAT_SECONDS = 5
"""A running trial's heartbeat: one silent for `STALE_SECONDS` (its process was killed) is marked failed and
tried again by the next worker to start a trial; it never counts as finished."""

STALE_SECONDS = 120
"""How long a running trial's heartbeat may be silent before another worker marks it failed. Generous: on a
loaded machine a live worker's heartbeat thread waits its turn for the CPU and for SQLite's lock, and a live
trial marked failed makes its worker stop with `UpdateFinishedTrialError` (the two-worker SQLite test stopped
so at load 18 with 20 s). A killed trial is retried that much later; the study never waits for it (it does not count)."""


class TuneError(WarcardsError):
    """A search space file or a tune setting is wrong (the message says what and what is allowed)."""


class Dimension(BaseModel):
    """One parameter's search range: `low`..`high` (every whole number, or every `step`-th), or `choices`."""

    model_config = ConfigDict(extra="forbid", strict=True)

    low: int | None = None
    high: int | None = None
    step: int = Field(default=1, ge=1)
    choices: list[int] | None = Field(default=None, min_length=1)

    @model_validator(mode="after")
    def _range_or_choices(self) -> Dimension:
        if (self.choices is None) == (self.low is None or self.high is None):
            raise ValueError("give either low and high, or choices")
        if self.low is not None and self.high is not None and self.low > self.high:
            raise ValueError(f"low {self.low} is above high {self.high}")
        return self

    def values(self) -> list[int]:
        if self.choices is not None:
            return sorted(set(self.choices))
        assert self.low is not None and self.high is not None
        return list(range(self.low, self.high + 1, self.step))


class SpaceFile(BaseModel):
    """The search space file (docs/tuning.md, "The search space file")."""

    model_config = ConfigDict(extra="forbid", strict=True)

    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    bot: str = "heuristic"
    bots: list[str] | dict[str, str] | None = None
    """A bot per seat: a list in seat order, or a table by seat name (`axis = "hard"`) or `seat0`, `seat1`…;
    seats it leaves out play `bot`."""
    parameters: dict[str, Dimension] = Field(default_factory=dict)
    cards: dict[str, dict[str, Dimension]] = Field(default_factory=dict)
    """Card fields to vary: `[cards.X01] force = {low = 1, high = 5}` (card id, then field)."""
    objectives: list[Literal["balance", "first_player", "length", "card_impact"]] = Field(
        default=["balance"], min_length=1)
    card_impact_limit: float | None = Field(default=None, gt=0, lt=1)
    """A constraint: settings where some card moves its player's win share by more than this are infeasible."""
    impact_min_games: int = Field(default=10, ge=1)
    """A card counts toward its impact once played, and left unplayed, in this many games by one seat."""
    band: float = Field(default=0.05, gt=0, lt=1)
    """`balance`: the target is every seat within this distance of the even share."""
    length_target: int | None = Field(default=None, ge=1)
    games: int = Field(default=200, ge=4, le=1_000_000)
    trials: int = Field(default=40, ge=1, le=100_000)
    batch: int = Field(default=50, ge=1)

    @model_validator(mode="after")
    def _length_needs_target(self) -> SpaceFile:
        if "length" in self.objectives and self.length_target is None:
            raise ValueError("the length objective needs length_target (the median game length in actions)")
        if len(set(self.objectives)) != len(self.objectives):
            raise ValueError("an objective is named twice")
        if not self.parameters and not any(self.cards.values()):
            raise ValueError("name at least one parameter ([parameters]) or card field ([cards.ID])")
        return self

    @property
    def measures_impact(self) -> bool:
        return "card_impact" in self.objectives or self.card_impact_limit is not None

    def dimensions(self) -> dict[str, Dimension]:
        """Every searched name: the parameters, then the card fields as `CARD.FIELD`."""
        found = dict(self.parameters)
        for card, fields in self.cards.items():
            for name, dimension in fields.items():
                found[f"{card}.{name}"] = dimension
        return found

    def lineup(self, seat_names: Sequence[str]) -> tuple[str, ...]:
        """The bot of each seat; `TuneError` for a seat the game does not have or a list of the wrong length."""
        if self.bots is None:
            return tuple(self.bot for _ in seat_names)
        if isinstance(self.bots, list):
            if len(self.bots) != len(seat_names):
                raise TuneError(f"bots lists {len(self.bots)} bots; {self.game} has {len(seat_names)} seats "
                                f"({', '.join(seat_names)}), one bot each")
            return tuple(self.bots)
        chosen = [self.bot for _ in seat_names]
        for seat, bot in self.bots.items():
            index = next((i for i, name in enumerate(seat_names) if seat in (name, f"seat{i}")), None)
            if index is None:
                raise TuneError(f"bots names seat {quote(seat)}; the seats are "
                                f"{', '.join(f'{name} (seat{i})' for i, name in enumerate(seat_names))}")
            chosen[index] = bot
        return tuple(chosen)


def read_space(path: Path) -> SpaceFile:
    """The search space file at `path`; `TuneError` naming the file and the field when it is wrong."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise TuneError(f"search space {quote(str(path))}: {error}") from None
    try:
        return SpaceFile.model_validate(data)
    except ValidationError as error:
        first = error.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(part) for part in first["loc"]) or "(file)"
        raise TuneError(f"search space {quote(str(path))}: {where}: {first['msg']}") from None


def check_space(space: SpaceFile, specs: Sequence[ParamSpec]) -> None:
    """Every parameter of the space is one of the game's, and its range lies inside the game's range (card
    fields are checked against the card file: `CardSource`)."""
    by_name = {spec.name: spec for spec in specs}
    for name, dimension in space.parameters.items():
        spec = by_name.get(name)
        if spec is None:
            allowed = ", ".join(s.describe() for s in specs) or "none"
            raise TuneError(f"{space.game}: unknown parameter {quote(name)} in the search space; parameters are: {allowed}")
        values = dimension.values()
        if values[0] < spec.low or values[-1] > spec.high:
            raise TuneError(
                f"{space.game}: parameter {name} is searched over {values[0]}..{values[-1]}, outside its range "
                f"{spec.low}..{spec.high}"
            )


# ----- measuring one setting ---------------------------------------------------------------------------------
@dataclass
class Measure:
    """What a setting's games showed: win shares per seat with 95% intervals, and the median length."""

    games: int
    wins: list[float]
    lengths: list[int] = field(default_factory=list)
    impact: CardImpact | None = None
    impact_min_games: int = 10

    @property
    def seats(self) -> int:
        return len(self.wins)

    def share(self, seat: int) -> float:
        return self.wins[seat] / self.games if self.games else 0.0

    def interval(self, seat: int) -> tuple[float, float]:
        return wilson_interval(self.wins[seat], self.games)

    @property
    def median_length(self) -> float:
        return float(statistics.median(self.lengths)) if self.lengths else 0.0

    def add(self, records: Sequence[TournamentRecord]) -> None:
        for record in records:
            for seat, share in enumerate(win_shares(record.returns)):
                self.wins[seat] += share
            self.lengths.append(len(record.actions))
            self.games += 1

    def objective(self, name: str, length_target: int | None) -> float:
        even = 1.0 / self.seats
        if name == "balance":
            return max(abs(self.share(seat) - even) for seat in range(self.seats))
        if name == "first_player":
            return abs(self.share(0) - even)
        if name == "card_impact":
            return self.card_impact()[1]
        assert length_target is not None
        return abs(self.median_length - length_target) / length_target

    def card_impact(self) -> tuple[str | None, float]:
        """The card of the largest impact, and its impact (None, 0.0 when not measured or no card qualifies)."""
        return (None, 0.0) if self.impact is None else self.impact.largest(self.impact_min_games)

    def clearly_off(self, band: float) -> bool:
        """Some seat's 95% interval lies wholly more than twice the band away from the even share."""
        even = 1.0 / self.seats
        for seat in range(self.seats):
            low, high = self.interval(seat)
            if low > even + 2 * band or high < even - 2 * band:
                return True
        return False

    def within(self, band: float) -> bool:
        """Every seat's share is within `band` of the even share."""
        even = 1.0 / self.seats
        return all(abs(self.share(seat) - even) <= band for seat in range(self.seats))


SpecMaker = Callable[[Mapping[str, Any], int, int], TournamentSpec]
"""`make(options, games, seed) -> TournamentSpec`: the games of one setting — the game with these options
added (`params`, the changed rule parameters; `cards`, the trial's card file), the space's bots."""


def registry_specs(space: SpaceFile, lineup: Sequence[str]) -> SpecMaker:
    """Settings of a registered game: the space's options with the setting's, the bots of `lineup`."""

    def make(extra: Mapping[str, Any], games: int, seed: int) -> TournamentSpec:
        return TournamentSpec(space.game, tuple(dict.fromkeys(lineup)), games, seed, {**space.options, **extra})

    return make


@dataclass
class CardSource:
    """The card file a study varies: its parsed tables (`base`: the shipped file, or options.cards), the
    searched fields' values in it, its card ids, and the folder where trials' card files are written."""

    base: dict[str, Any]
    label: str
    defaults: dict[str, int]
    ids: frozenset[str]
    folder: Path

    @classmethod
    def read(cls, path: Path, space: SpaceFile, folder: Path) -> CardSource:
        """The card file at `path` with the space's card fields checked (unknown card, unknown or
        non-numeric field: `TuneError` naming the card and the field)."""
        label = file_label(path)
        data = read_toml(path)
        try:
            defaults = card_defaults(data, {card: list(fields) for card, fields in space.cards.items()}, label)
        except CardFieldError as error:
            raise TuneError(str(error)) from None
        return cls(data, label, defaults, frozenset(card_rows(data)), folder)

    def options(self, cards: Mapping[str, Mapping[str, int]], note: str) -> dict[str, str]:
        """`{"cards": file}` for a setting that changes card fields, else nothing (the base file stands)."""
        if not cards:
            return {}
        return {"cards": str(write_card_file(self.base, cards, self.folder, note))}


def measure(
    make: SpecMaker, extra: Mapping[str, Any], games: int, seed: int, backend: Backend, batch: int,
    seats: int, after_batch: Callable[[Measure], bool] | None = None, lineup: Sequence[str] | None = None,
    impact_ids: frozenset[str] | None = None, impact_min_games: int = 10,
) -> Measure:
    """Play a setting's games in batches, every game with the same bot in each seat (`lineup`; None: the
    spec's one agent everywhere); with `impact_ids`, read which of those cards each seat played (replaying
    each record); `after_batch(measure)` returning True stops early (pruning)."""
    spec = make(extra, games, seed)
    seated = tuple(lineup) if lineup is not None else tuple(spec.agents[0] for _ in range(seats))
    tasks: list[GameTask] = [task_at(spec, [seated], index) for index in range(games)]
    result = Measure(0, [0.0] * seats, impact=CardImpact() if impact_ids is not None else None,
                     impact_min_games=impact_min_games)
    game = spec.load() if impact_ids is not None else None
    for start in range(0, len(tasks), batch):
        for records in backend.run(spec, tasks[start:start + batch]):
            result.add(records)
            if result.impact is not None and game is not None and impact_ids is not None:
                result.impact.add(game, records, impact_ids)
        if after_batch is not None and start + batch < len(tasks) and after_batch(result):
            break
    return result


# ----- the study ---------------------------------------------------------------------------------------------
@dataclass
class Study:
    """A tune run's settings: where the study lives and how its games are played."""

    space: SpaceFile
    specs: list[ParamSpec]
    make: SpecMaker
    seats: int
    storage: str
    name: str
    seed: int
    backend: Backend
    cards: CardSource | None = None
    """The card file, when the space varies card fields or measures card impact."""
    lineup: tuple[str, ...] | None = None
    """The bot of each seat (None: the spec's one agent in every seat)."""

    def all_defaults(self) -> dict[str, int]:
        """The rule text's value of every parameter, and the card file's of every searched card field."""
        found = {spec.name: spec.default for spec in self.specs}
        if self.cards is not None:
            found.update(self.cards.defaults)
        return found

    def defaults(self) -> dict[str, int]:
        """The searched names at the rule text's (and card file's) values: the baseline trial."""
        dimensions = self.space.dimensions()
        return {name: value for name, value in self.all_defaults().items() if name in dimensions}

    def changed(self, params: Mapping[str, int]) -> dict[str, int]:
        """The values that differ from the rule text's (card fields as `CARD.FIELD`)."""
        defaults = self.all_defaults()
        return {name: value for name, value in params.items() if defaults.get(name) != value}

    def options(self, changed: Mapping[str, int]) -> dict[str, Any]:
        """The game options that play a setting: `params` (the changed rule parameters) and `cards` (a card
        file with the changed card fields, written in the cards folder)."""
        params, cards = split_setting(changed)
        extra: dict[str, Any] = {"params": params} if params else {}
        if cards:
            if self.cards is None:
                raise TuneError("the search space varies card fields but the study has no card file")
            extra.update(self.cards.options(cards, f"{self.space.game}: {describe_changes(self, changed)}"))
        return extra

    def check_cards(self) -> None:
        """The game loads the card file with every searched card field at its lowest, and at its highest
        value (its strict loader checks each value); one it refuses is a `TuneError` naming the card, the
        field and what the game allows."""
        cards = {name: dimension.values() for name, dimension in self.space.dimensions().items() if "." in name}
        for end, word in ((0, "lowest"), (-1, "highest")):
            if not cards:
                return
            setting = {name: values[end] for name, values in cards.items()}
            try:
                self.make(self.options(setting), 1, self.seed).load().new_initial_state()
            except WarcardsError as error:
                raise TuneError(f"the search space's {word} card values are refused: {error}") from None

    def play(self, changed: Mapping[str, int], games: int, seed: int, batch: int,
             after_batch: Callable[[Measure], bool] | None = None) -> Measure:
        """Play a setting's games (the space's bots; card impact read when the space asks for it)."""
        ids = self.cards.ids if self.cards is not None and self.space.measures_impact else None
        if self.space.measures_impact and ids is None:
            raise TuneError("the card_impact objective needs the game's card file (its card ids)")
        return measure(self.make, self.options(changed), games, seed, self.backend, batch, self.seats,
                       after_batch, self.lineup, ids, self.space.impact_min_games)


def open_study(run: Study) -> Any:
    """The Optuna study (created, or loaded to resume): TPE for one objective, NSGA-II for several; a
    heartbeat so that a trial whose process was killed is marked failed and tried again, never counted."""
    import optuna
    from optuna.storages import RDBStorage, RetryHeartbeatStaleTrialCallback

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    from sqlalchemy.exc import IntegrityError, OperationalError, ProgrammingError

    from warcards.server.db import normalize_url  # postgresql:// through psycopg 3, as the server does

    for attempt in range(6):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
                storage = RDBStorage(
                    normalize_url(run.storage), heartbeat_interval=HEARTBEAT_SECONDS, grace_period=STALE_SECONDS,
                    heartbeat_stale_trial_callback=RetryHeartbeatStaleTrialCallback(max_retry=2),
                    engine_kwargs={"connect_args": {"timeout": 60}} if run.storage.startswith("sqlite") else None,
                )
            break
        except (IntegrityError, OperationalError, ProgrammingError):
            # Two workers starting at once on a new storage both create its tables: the later one retries
            # and finds them made (PostgreSQL says `DuplicateTable`, a ProgrammingError; SQLite an
            # OperationalError or IntegrityError).
            if attempt == 5:
                raise
            time.sleep(0.5 * (attempt + 1))
    several = len(run.space.objectives) > 1
    sampler = (optuna.samplers.NSGAIISampler(seed=run.seed) if several
               else optuna.samplers.TPESampler(seed=run.seed, n_startup_trials=min(10, run.space.trials)))
    study = optuna.create_study(
        storage=storage, study_name=run.name, load_if_exists=True, sampler=sampler,
        directions=["minimize"] * len(run.space.objectives),
    )
    if not study.trials:
        study.enqueue_trial(run.defaults())  # the rule text's setting is the first trial: the baseline
    return study


def feasible(trial: Any) -> bool:
    """Whether a trial meets the card impact limit (a trial without the limit does)."""
    return all(value <= 0 for value in trial.user_attrs.get("constraint", [0.0]))


def finished_trials(study: Any) -> list[Any]:
    import optuna

    done = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
    return [trial for trial in study.get_trials(deepcopy=False) if trial.state in done]


def optimize(run: Study, on_trial: Callable[[Any, Any], None] | None = None) -> Any:
    """Run trials until the study holds `space.trials` finished (complete or pruned) trials, counting those
    of earlier runs and of other workers; returns the study."""
    import optuna

    study = open_study(run)
    space = run.space
    single = len(space.objectives) == 1

    def objective(trial: Any) -> float | list[float]:
        params = {}
        for name, dimension in space.dimensions().items():
            params[name] = trial.suggest_categorical(name, dimension.values())
        changed = run.changed(params)
        trial.set_user_attr("changed", changed)

        def prune(progress: Measure) -> bool:
            if not single:
                return False  # Optuna prunes single-objective studies only
            value = progress.objective(space.objectives[0], space.length_target)
            trial.report(value, progress.games)
            best = _best_value(study)
            if progress.clearly_off(space.band) and best is not None and value > best:
                raise optuna.TrialPruned()
            return False

        result = run.play(changed, space.games, run.seed, space.batch, prune)
        trial.set_user_attr("shares", [round(result.share(s), 4) for s in range(result.seats)])
        trial.set_user_attr("median_length", result.median_length)
        if result.impact is not None:
            card, impact = result.card_impact()
            trial.set_user_attr("card_impact", [card, round(impact, 4)])
            if space.card_impact_limit is not None:
                # Optuna's samplers read the constraint (feasible at or below 0); the report reads the attribute
                trial.set_constraint("card_impact", impact - space.card_impact_limit)
                trial.set_user_attr("constraint", [impact - space.card_impact_limit])
        values = [result.objective(name, space.length_target) for name in space.objectives]
        return values[0] if single else values

    callbacks: list[Callable[[Any, Any], None]] = [optuna.study.MaxTrialsCallback(
        space.trials, states=(optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED))]
    if on_trial is not None:
        callbacks.append(on_trial)
    if len(finished_trials(study)) < space.trials:
        study.optimize(objective, callbacks=callbacks, n_trials=space.trials * 4, gc_after_trial=False)
    return study


def _best_value(study: Any) -> float | None:
    """The best finished value among feasible trials (every complete trial without a card impact limit)."""
    import optuna

    values = [t.value for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))
              if feasible(t)]
    return min(values) if values else None


def status_line(study: Any, wanted: int) -> str:
    """The progress bar's text: trials finished of those wanted, how many were pruned, the best value so far
    and its setting's changes from the rule text."""
    import optuna

    trials = study.get_trials(deepcopy=False)
    done = sum(t.state in (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED) for t in trials)
    pruned = sum(t.state == optuna.trial.TrialState.PRUNED for t in trials)
    complete = [t for t in trials if t.state == optuna.trial.TrialState.COMPLETE and feasible(t)]
    text = f"trial {done}/{wanted} · {pruned} pruned"
    if complete:
        best = min(complete, key=lambda t: (t.values[0], t.number))
        changes = best.user_attrs.get("changed") or {}
        shown = ", ".join(f"{name}={value}" for name, value in sorted(changes.items())) or "the rule text"
        text += f" · best {best.values[0]:.3f} (trial {best.number}: {shown})"
    return text


# ----- the report --------------------------------------------------------------------------------------------
@dataclass
class Candidate:
    """A setting to report: its changed parameters, the study's figures and the fresh re-simulation."""

    label: str
    changed: dict[str, int]
    values: list[float]
    fresh: Measure | None = None


def candidates(run: Study, study: Any, top: int = 5) -> list[Candidate]:
    """The rule text's setting, the best settings (the Pareto front for several objectives) and the
    smallest change from the text whose study figures reach the band."""
    import optuna

    complete = _distinct(run, study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,)))
    baseline = next((t for t in complete if not run.changed(t.params)), None)
    chosen: list[Candidate] = [Candidate("rule text", {}, list(baseline.values) if baseline is not None else [])]
    if len(run.space.objectives) > 1:
        front = {t.number for t in study.best_trials}
        best = sorted((t for t in complete if t.number in front), key=lambda t: t.values)[:top]
    else:
        best = sorted(complete, key=lambda t: (not feasible(t), t.value))[:top]
    seen: set[tuple[tuple[str, int], ...]] = {()}
    for index, trial in enumerate(best, 1):
        changed = run.changed(trial.params)
        key = tuple(sorted(changed.items()))
        if key not in seen:
            seen.add(key)
            chosen.append(Candidate(f"best {index}", changed, list(trial.values)))
    smallest = _smallest_change(run, complete)
    if smallest is not None:
        changed = run.changed(smallest.params)
        key = tuple(sorted(changed.items()))
        if key not in seen:
            chosen.append(Candidate("smallest change", changed, list(smallest.values)))
        else:
            for item in chosen:
                if tuple(sorted(item.changed.items())) == key:
                    item.label += " (smallest change)"
    return chosen


def _distinct(run: Study, trials: Sequence[Any]) -> list[Any]:
    """One trial per result: settings whose games came out the same (a parameter that never mattered in
    them, e.g. a goal no game reached) are one setting, reported by its smallest change from the text."""
    kept: dict[tuple[Any, ...], Any] = {}
    for trial in sorted(trials, key=lambda t: (_distance(run, t), t.number)):
        key = (tuple(trial.values), tuple(trial.user_attrs.get("shares", ())), trial.user_attrs.get("median_length"))
        kept.setdefault(key, trial)
    return sorted(kept.values(), key=lambda t: t.number)


def _distance(run: Study, trial: Any) -> float:
    """How far a trial's setting is from the rule text: each changed parameter's distance as a share of its
    range, summed."""
    defaults = run.all_defaults()
    return float(sum(abs(value - defaults[name]) / _span(run, name) for name, value in trial.params.items()))


def _span(run: Study, name: str) -> int:
    """A searched name's range width: the game's range for a parameter, the searched one for a card field."""
    spec = next((spec for spec in run.specs if spec.name == name), None)
    if spec is not None:
        return max(1, spec.high - spec.low)
    values = run.space.dimensions()[name].values()
    return max(1, values[-1] - values[0])


def _smallest_change(run: Study, complete: Sequence[Any]) -> Any | None:
    """Of the trials within the band in the study's games, the one nearest the rule text (the sum of each
    changed parameter's distance as a share of its range)."""
    even = 1.0 / run.seats
    reaching = [t for t in complete if feasible(t)
                and all(abs(s - even) <= run.space.band for s in t.user_attrs.get("shares", [1.0]))]
    return min(reaching, key=lambda t: (_distance(run, t), t.number)) if reaching else None


def resimulate(run: Study, chosen: list[Candidate], games: int, seed: int) -> None:
    """Each candidate played again on fresh seeds (`seed`, not the study's), all on the same deals."""
    for item in chosen:
        item.fresh = run.play(item.changed, games, seed, max(games, 1))


def param_line(changed: Mapping[str, int]) -> str:
    """The `--param` flags of a setting's rule parameters (its card fields travel in a card file)."""
    params, _ = split_setting(changed)
    return " ".join(f"--param {name}={value}" for name, value in sorted(params.items()))


def params_toml(changed: Mapping[str, int], note: str) -> str:
    """A parameter file `--param FILE.toml` reads (and the lobby's house rules)."""
    params, _ = split_setting(changed)
    lines = [f"# {note}", "[params]"]
    lines += [f"{name} = {value}" for name, value in sorted(params.items())]
    return "\n".join(lines) + "\n"


def describe_changes(run: Study, changed: Mapping[str, int]) -> str:
    """`axis_hand_size 14→10, X01.force 3→5`, or `—` for the rule text."""
    defaults = run.all_defaults()
    return ", ".join(f"{name} {defaults[name]}→{value}" for name, value in sorted(changed.items())) or "—"


def describe_lineup(lineup: Sequence[str] | None, bot: str, seat_names: Sequence[str]) -> str:
    """`heuristic` in every seat, or each seat's bot."""
    if lineup is None or len(set(lineup)) == 1:
        return f"`{lineup[0] if lineup else bot}` in every seat"
    return ", ".join(f"{name}: `{agent}`" for name, agent in zip(seat_names, lineup, strict=True))


def write_report(run: Study, study: Any, chosen: list[Candidate], out: Path, seat_names: list[str],
                 command: str, fresh_seed: int) -> Path:
    """README.md (tables, the command lines), history.png, importance.png and best.params.toml in `out`."""
    import optuna

    out.mkdir(parents=True, exist_ok=True)
    space = run.space
    trials = study.get_trials(deepcopy=False)
    states = {state.name.lower(): sum(t.state == state for t in trials) for state in optuna.trial.TrialState}
    lines = [
        f"# Tuning {space.game} ({', '.join(f'{k}={v}' for k, v in space.options.items()) or 'default options'})",
        "",
        f"Generated by `{command}`: {describe_lineup(run.lineup, space.bot, seat_names)}, {space.games} games a trial on the same seeds "
        f"(seed {run.seed}); objectives: {', '.join(space.objectives)} (minimised); target: every seat within "
        f"{space.band:.0%} of the even share ({1 / run.seats:.1%}). Study `{run.name}` in `{_safe_storage(run.storage)}`: "
        + ", ".join(f"{count} {name}" for name, count in states.items() if count) + ".",
        "",
        f"## The settings, re-simulated on fresh seeds (seed {fresh_seed})",
        "",
        "The study compares settings on the same games, and the best of many looks better there than it is: "
        "each setting below is played again on games the study never saw, and those are the figures to trust.",
        "",
        f"| setting | changes from the rule text | {space.objectives[0]} in the study | "
        + " | ".join(f"{name} win share [95%]" for name in seat_names) + " | median length | within the band |",
        "|---|---|---|" + "---|" * len(seat_names) + "---|---|",
    ]
    if space.measures_impact:
        lines[-2] += " largest card impact |"
        lines[-1] += "---|"
    for item in chosen:
        fresh = item.fresh
        assert fresh is not None
        cells = []
        for seat in range(fresh.seats):
            low, high = fresh.interval(seat)
            cells.append(f"{fresh.share(seat):.1%} [{low:.1%}, {high:.1%}]")
        changes = describe_changes(run, item.changed)
        studied = f"{item.values[0]:.3f}" if item.values else "—"
        lines.append(f"| {item.label} | {changes} | {studied} | " + " | ".join(cells)
                     + f" | {fresh.median_length:.0f} | {'yes' if fresh.within(space.band) else 'no'} |")
        if space.measures_impact:
            card, impact = fresh.card_impact()
            lines[-1] += f" {card} {impact:.1%} |" if card is not None else " — |"
    reaching = [item for item in chosen[1:] if item.fresh is not None and item.fresh.within(space.band)
                and (space.card_impact_limit is None or item.fresh.card_impact()[1] <= space.card_impact_limit)]
    first = space.objectives[0]
    if first != "balance" and chosen[0].fresh is not None:
        # the target is the first objective: a setting to play must beat the rule text's on fresh seeds
        text_value = chosen[0].fresh.objective(first, space.length_target)
        reaching = [item for item in reaching
                    if item.fresh is not None and item.fresh.objective(first, space.length_target) < text_value]
    lines += ["", "## What to play", ""]
    if reaching:
        if first == "balance":
            pick = min(reaching, key=lambda item: len(item.changed))
            why = "The smallest reported change that stays within the band on fresh seeds"
        else:
            pick = min(reaching, key=lambda item: (item.fresh.objective(first, space.length_target)
                                                   if item.fresh is not None else math.inf))
            why = f"The reported setting of the best {first} on fresh seeds, within the band"
        params, cards = split_setting(pick.changed)
        flags = [_options_line(space.options).strip(), param_line(pick.changed),
                 "--cards best.cards.toml" if cards else ""]
        play_flags = [flags[0], "--param best.params.toml" if params else "", flags[2]]
        lines += [
            f"{why}: **{pick.label}**.",
            "", "```",
            " ".join(["warcards simulate", space.game, *(flag for flag in flags if flag)]),
            " ".join(["warcards play", space.game, *(flag for flag in play_flags if flag)]),
            "```", "",
            "In this folder, `best.params.toml` holds its rule parameters (`--param FILE.toml` on play, "
            "simulate, tournament, balance; no line when it changes none)"
            + ("; `best.cards.toml` is the card file with its card values (`--cards FILE`)." if cards else "."),
        ]
        (out / "best.params.toml").write_text(params_toml(pick.changed, f"{pick.label}: {command}"))
        if cards and run.cards is not None:
            note = f"{pick.label} ({describe_changes(run, pick.changed)}): {command}"
            (out / "best.cards.toml").write_text(f"# {note}\n" + dump_toml(with_card_values(run.cards.base, cards)),
                                                 encoding="utf-8")
    else:
        lines.append(f"No reported setting keeps every seat within {space.band:.0%} of the even share on fresh "
                     "seeds, inside the ranges searched: widen the ranges, add parameters, or accept a wider band.")
    lines += ["", "## Optimisation history", "", "![history](history.png)", ""]
    _history_plot(study, out / "history.png", space.objectives[0])
    importances = _importances(study, len(space.dimensions()))
    if importances:
        lines += ["## Parameter importances (fANOVA, first objective)", "", "| parameter | importance |", "|---|---|"]
        lines += [f"| {name} | {value:.2f} |" for name, value in importances.items()]
        lines.append("")
    (out / "README.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out / "README.md"


def _options_line(options: Mapping[str, Any]) -> str:
    return "".join(f" --option {k}={v}" for k, v in options.items())


def _safe_storage(url: str) -> str:
    """The storage address without a password."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://…@{rest.split('@', 1)[1]}"
    return url


def _history_plot(study: Any, path: Path, objective: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import optuna

    trials = study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))
    figure, axes = plt.subplots(figsize=(7, 3.5))
    numbers = [t.number for t in trials]
    values = [t.values[0] for t in trials]
    best = [min(values[: i + 1]) for i in range(len(values))]
    axes.scatter(numbers, values, s=12, label=f"trial's {objective}")
    axes.step(numbers, best, where="post", color="C1", label="best so far")
    axes.set_xlabel("trial")
    axes.set_ylabel(objective)
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def _importances(study: Any, parameters: int) -> dict[str, float]:
    """fANOVA importances of the first objective (needs two parameters and a few complete trials)."""
    import optuna

    complete = study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))
    if parameters < 2 or len(complete) < 4:
        return {}
    evaluator = optuna.importance.FanovaImportanceEvaluator(seed=0)
    try:
        found = optuna.importance.get_param_importances(study, evaluator=evaluator, target=lambda t: t.values[0])
    except (RuntimeError, ValueError, ImportError):
        return {}
    return {name: float(value) for name, value in found.items() if not math.isnan(value)}


def fresh_seed(seed: int) -> int:
    """The re-simulation's seed: derived from the study's, never equal to it."""
    return derive_seed(seed, "resimulate")


__all__ = [
    "OBJECTIVES",
    "Candidate",
    "Dimension",
    "Measure",
    "SpaceFile",
    "Study",
    "TuneError",
    "candidates",
    "check_space",
    "fresh_seed",
    "measure",
    "optimize",
    "param_line",
    "params_toml",
    "read_space",
    "registry_specs",
    "resimulate",
    "write_report",
]
