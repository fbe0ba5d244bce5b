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
- `length`: the distance of the median game length (actions) from `length_target`, as a fraction of it.
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

from warcards.arena.tournament import Backend, GameTask, TournamentRecord, TournamentSpec, schedule
from warcards.engine.errors import WarcardsError
from warcards.engine.params import ParamSpec
from warcards.engine.text import quote
from warcards.match import derive_seed
from warcards.simulate import wilson_interval, win_shares

OBJECTIVES = ("balance", "first_player", "length")

HEARTBEAT_SECONDS = 5
"""A running trial's heartbeat: one silent for four beats (its process was killed) is marked failed and
tried again by the next worker to start a trial; it never counts as finished."""


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
    parameters: dict[str, Dimension] = Field(min_length=1)
    objectives: list[Literal["balance", "first_player", "length"]] = Field(default=["balance"], min_length=1)
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
        return self


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
    """Every parameter of the space is one of the game's, and its range lies inside the game's range."""
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
        assert length_target is not None
        return abs(self.median_length - length_target) / length_target

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


SpecMaker = Callable[[Mapping[str, int], int, int], TournamentSpec]
"""`make(params, games, seed) -> TournamentSpec`: the games of one setting (the game with these changed
parameters, the bot in every seat)."""


def registry_specs(space: SpaceFile) -> SpecMaker:
    """Settings of a registered game: its options with `params`, the space's bot in every seat."""

    def make(params: Mapping[str, int], games: int, seed: int) -> TournamentSpec:
        options = dict(space.options)
        if params:
            options["params"] = dict(params)
        return TournamentSpec(space.game, (space.bot,), games, seed, options)

    return make


def measure(
    make: SpecMaker, params: Mapping[str, int], games: int, seed: int, backend: Backend, batch: int,
    seats: int, after_batch: Callable[[Measure], bool] | None = None,
) -> Measure:
    """Play a setting's games in batches; `after_batch(measure)` returning True stops early (pruning)."""
    spec = make(params, games, seed)
    tasks: list[GameTask] = schedule(spec, seats)
    result = Measure(0, [0.0] * seats)
    for start in range(0, len(tasks), batch):
        for records in backend.run(spec, tasks[start:start + batch]):
            result.add(records)
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

    def defaults(self) -> dict[str, int]:
        return {spec.name: spec.default for spec in self.specs if spec.name in self.space.parameters}

    def changed(self, params: Mapping[str, int]) -> dict[str, int]:
        """The values that differ from the rule text's."""
        defaults = {spec.name: spec.default for spec in self.specs}
        return {name: value for name, value in params.items() if defaults.get(name) != value}


def open_study(run: Study) -> Any:
    """The Optuna study (created, or loaded to resume): TPE for one objective, NSGA-II for several; a
    heartbeat so that a trial whose process was killed is marked failed and tried again, never counted."""
    import optuna
    from optuna.storages import RDBStorage, RetryHeartbeatStaleTrialCallback

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    from sqlalchemy.exc import IntegrityError, OperationalError

    for attempt in range(6):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
                storage = RDBStorage(
                    run.storage, heartbeat_interval=HEARTBEAT_SECONDS, grace_period=4 * HEARTBEAT_SECONDS,
                    heartbeat_stale_trial_callback=RetryHeartbeatStaleTrialCallback(max_retry=2),
                    engine_kwargs={"connect_args": {"timeout": 60}} if run.storage.startswith("sqlite") else None,
                )
            break
        except (IntegrityError, OperationalError):
            # Two workers starting at once on a new storage both create its tables: the later one retries
            # and finds them made.
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
        for name, dimension in space.parameters.items():
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

        result = measure(run.make, changed, space.games, run.seed, run.backend, space.batch, run.seats, prune)
        trial.set_user_attr("shares", [round(result.share(s), 4) for s in range(result.seats)])
        trial.set_user_attr("median_length", result.median_length)
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
    import optuna

    values = [t.value for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))]
    return min(values) if values else None


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
        best = sorted(complete, key=lambda t: t.value)[:top]
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
    by_name = {spec.name: spec for spec in run.specs}
    return float(sum(abs(value - by_name[name].default) / max(1, by_name[name].high - by_name[name].low)
                     for name, value in trial.params.items()))


def _smallest_change(run: Study, complete: Sequence[Any]) -> Any | None:
    """Of the trials within the band in the study's games, the one nearest the rule text (the sum of each
    changed parameter's distance as a share of its range)."""
    even = 1.0 / run.seats
    reaching = [t for t in complete
                if all(abs(s - even) <= run.space.band for s in t.user_attrs.get("shares", [1.0]))]
    return min(reaching, key=lambda t: (_distance(run, t), t.number)) if reaching else None


def resimulate(run: Study, chosen: list[Candidate], games: int, seed: int) -> None:
    """Each candidate played again on fresh seeds (`seed`, not the study's), all on the same deals."""
    for item in chosen:
        item.fresh = measure(run.make, item.changed, games, seed, run.backend, max(games, 1), run.seats)


def param_line(changed: Mapping[str, int]) -> str:
    return " ".join(f"--param {name}={value}" for name, value in sorted(changed.items()))


def params_toml(changed: Mapping[str, int], note: str) -> str:
    """A parameter file `--param FILE.toml` reads (and the lobby's house rules)."""
    lines = [f"# {note}", "[params]"]
    lines += [f"{name} = {value}" for name, value in sorted(changed.items())]
    return "\n".join(lines) + "\n"


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
        f"Generated by `{command}`: `{space.bot}` in every seat, {space.games} games a trial on the same seeds "
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
    for item in chosen:
        fresh = item.fresh
        assert fresh is not None
        cells = []
        for seat in range(fresh.seats):
            low, high = fresh.interval(seat)
            cells.append(f"{fresh.share(seat):.1%} [{low:.1%}, {high:.1%}]")
        changes = ", ".join(f"{k} {_default(run, k)}→{v}" for k, v in sorted(item.changed.items())) or "—"
        studied = f"{item.values[0]:.3f}" if item.values else "—"
        lines.append(f"| {item.label} | {changes} | {studied} | " + " | ".join(cells)
                     + f" | {fresh.median_length:.0f} | {'yes' if fresh.within(space.band) else 'no'} |")
    reaching = [item for item in chosen[1:] if item.fresh is not None and item.fresh.within(space.band)]
    lines += ["", "## What to play", ""]
    if reaching:
        pick = min(reaching, key=lambda item: len(item.changed))
        lines += [
            f"The smallest reported change that stays within the band on fresh seeds: **{pick.label}**.",
            "", "```", f"warcards simulate {space.game}{_options_line(space.options)} {param_line(pick.changed)}",
            f"warcards play {space.game}{_options_line(space.options)} --param best.params.toml", "```", "",
            "`best.params.toml` in this folder holds it (`--param FILE.toml` on play, simulate, tournament, "
            "balance).",
        ]
        (out / "best.params.toml").write_text(params_toml(pick.changed, f"{pick.label}: {command}"))
    else:
        lines.append(f"No reported setting keeps every seat within {space.band:.0%} of the even share on fresh "
                     "seeds, inside the ranges searched: widen the ranges, add parameters, or accept a wider band.")
    lines += ["", "## Optimisation history", "", "![history](history.png)", ""]
    _history_plot(study, out / "history.png", space.objectives[0])
    importances = _importances(study, len(space.parameters))
    if importances:
        lines += ["## Parameter importances (fANOVA, first objective)", "", "| parameter | importance |", "|---|---|"]
        lines += [f"| {name} | {value:.2f} |" for name, value in importances.items()]
        lines.append("")
    (out / "README.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out / "README.md"


def _default(run: Study, name: str) -> int:
    return next(int(spec.default) for spec in run.specs if spec.name == name)


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
