"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley & Whitehouse 2012).

The bot sees only its `SeatView`. Each iteration samples a fresh full state with `view.determinize(rng)`
(hidden cards resampled from what the seat knows), walks one shared tree of player actions with UCB1
using availability counts (an action's "parent visits" are the iterations in which it was legal), expands
one node, finishes the game with a rollout and backs up every seat's return: each edge is scored by the
return of the seat that chose it, so 2–9 players work alike. Chance nodes are sampled, not stored.

Rollouts are uniformly random, or played (wholly, or for their first moves) by the game's `heuristic`
bot; they may stop after a horizon of player actions when the game package exports
`evaluate(state) -> list[float]` (an estimate of the returns). With a heuristic prior (`hard`), the
heuristic's move at each new node is tried first with a progressive bias, and at the root the search
replaces it only on evidence.
Returns are normalised to [0, 1] by the range seen so far in the search, so one exploration constant
serves every game's scoring scale.

`SearchConfig(paired=True)` replaces the root's tree by paired sampling: each determinization is rolled
out after every legal move (heuristic rollouts to a horizon, scored by the game's `evaluate`), so moves are
compared on the same hidden cards, and the heuristic's move is left only on a significant paired gain.
`hard` uses it in the games whose specs declare `evaluate` (their `GameSpec.search_levels`).

The named levels (`make_agent("hard" | "ismcts", game, seat, seed)`) are fixed budgets so a tournament is
reproducible whatever the machine load; see docs/bots.md for the table. `hard` is the top of the player's
ladder (`warcards.bots.LADDER`); `ismcts` is kept for study.
"""

from __future__ import annotations

import contextlib
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from warcards.engine.agents import Agent, SeatView
from warcards.engine.api import CHANCE, TERMINAL, Game, State
from warcards.engine.registry import spec_of

Evaluator = Callable[[State], list[float]]
AgentBuilder = Callable[[Game, int, int], Agent]


@dataclass(frozen=True)
class SearchConfig:
    """A search budget and policy.

    `iterations` caps the determinizations per decision; `action_budget` (optional) also stops the search
    once that many actions (chance included) have been applied in its tree walks and rollouts, which keeps
    long games within time while staying reproducible; `time_limit` (seconds, optional) stops on the clock
    (not reproducible under load, so the named levels do not use it). `rollout` is "random" or
    "heuristic"; `horizon` stops a rollout after that many player actions when an evaluator exists.
    `prior` > 0 asks the game's heuristic bot once per tree node for its move there: that child is
    expanded first and gets a progressive bias of `prior / (visits + 1)` (in normalised return units),
    so the search starts from the heuristic's plan and leaves it only on evidence: the most visited move
    replaces the heuristic's only when its mean return is `override` standard errors higher. `guided` > 0 lets the
    heuristic play the first `guided` player actions of each random rollout (cheaper than a full
    heuristic rollout, more realistic than a random one).

    `paired` replaces the tree at the root by paired sampling: every determinization is rolled out once
    after each legal move, so moves are compared on the same hidden cards (the luck of the deal cancels
    out of their difference); `iterations` is then the number of rollouts, shared by the moves (at least
    `PAIRED_MIN_SAMPLES` determinizations), and the heuristic's move is replaced only when the best move's
    mean paired difference over it is `override` standard errors above zero. With `halving`, the moves
    are sampled in rounds and the worse half dropped after each, so the rollouts go to the contenders.
    `extend` settles close calls: when the best move's paired gain over the heuristic's is between half
    the `override` and the `override` standard errors, up to `extend` more determinizations are rolled
    out after just those two moves (in rounds of `PAIRED_MIN_SAMPLES`), stopping as soon as the gain is
    `override` standard errors above zero or falls under half of that. `confirm` > 0 judges the override on
    fresh evidence instead: the best move and the heuristic's are rolled out on `confirm` new
    determinizations, and only those paired differences count. The best of many moves, picked on the
    samples that rate it, is rated too high by their noise (the winner's curse); new samples are not.
    """

    iterations: int = 1000
    action_budget: int | None = None
    time_limit: float | None = None
    exploration: float = 0.7
    rollout: str = "random"
    horizon: int | None = None
    prior: float = 0.0
    override: float = 1.0
    guided: int = 0
    paired: bool = False
    halving: bool = False
    extend: int = 0
    confirm: int = 0

    def __post_init__(self) -> None:
        if self.iterations < 1:
            raise ValueError(f"ismcts: iterations must be at least 1, got {self.iterations}")
        if self.rollout not in ("random", "heuristic"):
            raise ValueError(f"ismcts: rollout must be 'random' or 'heuristic', got {self.rollout!r}")
        if self.action_budget is not None and self.action_budget < 1:
            raise ValueError(f"ismcts: action_budget must be at least 1 action, got {self.action_budget}")
        if self.time_limit is not None and self.time_limit <= 0:
            raise ValueError(f"ismcts: time_limit must be positive seconds, got {self.time_limit}")
        if self.guided < 0:
            raise ValueError(f"ismcts: guided must be 0 (off) or a number of moves, got {self.guided}")
        if self.prior < 0:
            raise ValueError(f"ismcts: prior must be 0 (off) or positive, got {self.prior}")
        if self.horizon is not None and self.horizon < 1:
            raise ValueError(f"ismcts: horizon must be at least 1 player action, got {self.horizon}")
        if self.extend < 0:
            raise ValueError(f"ismcts: extend must be 0 (off) or a number of determinizations, got {self.extend}")
        if self.confirm < 0 or 0 < self.confirm < 2:
            raise ValueError(
                f"ismcts: confirm must be 0 (off) or at least 2 determinizations, got {self.confirm}"
            )


class CanonicalRandom(random.Random):
    """The bot's RNG. `shuffle` sorts first, so a game's `determinize` that gathers the unknown cards in
    an order that follows their true places still samples the same state for two true states the seat
    cannot tell apart: the bot's choices then depend on its view alone."""

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]  # random.Random.shuffle takes a MutableSequence; this RNG's callers only shuffle lists
        with contextlib.suppress(TypeError):
            x.sort()
        super().shuffle(x)


_SEATS = 16
"""Children are keyed by `action * _SEATS + seat`: after the same actions, different determinizations may
give the move to different seats (a chance outcome decides), and their edges must not mix."""


class _Node:
    """An edge of the tree: the seat that chose it, its visits, availability and summed raw return."""

    __slots__ = ("avail", "children", "hint", "seat", "squares", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.squares = 0.0
        """The sum of the squared returns backed up through this edge (for the override's standard error)."""
        self.children: dict[int, _Node] = {}
        self.hint = -1
        """The child key the heuristic prefers here (-1: not asked yet, or no prior)."""


@dataclass
class SearchStats:
    """What the last decision cost: iterations run, seconds spent, and the root visit counts."""

    iterations: int = 0
    seconds: float = 0.0
    visits: dict[int, int] | None = None


class ISMCTSAgent:
    """Single-observer ISMCTS over `view.determinize(rng)`; its RNG is its own, seeded by `seed`."""

    def __init__(
        self,
        game: Game,
        seat: int,
        seed: int,
        config: SearchConfig | None = None,
        name: str = "ismcts",
        heuristic: AgentBuilder | None = None,
        evaluator: Evaluator | None = None,
    ) -> None:
        self.game = game
        self.seat = seat
        self.name = name
        self.config = config or SearchConfig()
        self.rng = CanonicalRandom(seed)
        self.evaluator = evaluator
        self.last = SearchStats()
        self._rollout_agents: list[Agent] = []
        self._prior_agents: list[Agent] = []
        if self.config.rollout == "heuristic" or self.config.prior > 0 or self.config.guided > 0:
            build = heuristic or _game_heuristic
            agents = [build(game, s, self.rng.randrange(1 << 62)) for s in range(game.num_players)]
            if self.config.rollout == "heuristic" or self.config.guided > 0:
                self._rollout_agents = agents
            if self.config.prior > 0:
                self._prior_agents = agents

    def step(self, view: SeatView) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            self.last = SearchStats(0, 0.0, {legal[0]: 0})
            return legal[0]
        if self.config.paired and self.config.halving:
            return self._halving_step(view, legal)
        if self.config.paired:
            return self._paired_step(view, legal)
        root = _Node(self.seat)
        config = self.config
        start = time.perf_counter()
        deadline = start + config.time_limit if config.time_limit is not None else math.inf
        bounds = [math.inf, -math.inf]
        budget = config.action_budget if config.action_budget is not None else math.inf
        spent = 0
        done = 0
        while done < config.iterations:
            spent += self._iterate(root, view.determinize(self.rng), bounds)
            done += 1
            if spent >= budget or (deadline != math.inf and time.perf_counter() >= deadline):
                break
        edges = {
            a: root.children[a * _SEATS + self.seat] for a in legal if a * _SEATS + self.seat in root.children
        }
        best = max(legal, key=lambda a: (edges[a].visits, edges[a].total) if a in edges else (-1, 0.0))
        hint = root.hint // _SEATS if root.hint >= 0 else -1
        if hint in edges and best != hint and not self._evidence(edges[best], edges[hint], bounds):
            best = hint
        self.last = SearchStats(
            done, time.perf_counter() - start, {a: edge.visits for a, edge in edges.items()}
        )
        return best

    def _paired_step(self, view: SeatView, legal: list[int]) -> int:
        """Paired sampling at the root: each determinization is rolled out after every legal move (the
        rollout's own moves by the heuristic, up to the horizon, then the game's evaluation), and the
        heuristic's move stands unless another beats it by `override` standard errors of the paired
        differences."""
        start = time.perf_counter()
        config = self.config
        deadline = start + config.time_limit if config.time_limit is not None else math.inf
        samples = max(PAIRED_MIN_SAMPLES, config.iterations // len(legal))
        values: dict[int, list[float]] = {action: [] for action in legal}
        seat = self.seat
        done = 0
        while done < samples:
            world = view.determinize(self.rng)
            for action in legal:
                state = world.clone()
                state.apply_action(action)
                values[action].append(self._rollout(state)[0][seat])
            done += 1
            if deadline != math.inf and time.perf_counter() >= deadline:
                break
        means = {action: sum(v) / done for action, v in values.items()}
        best = max(legal, key=lambda action: means[action])
        hint = self._prior_agents[seat].step(view) if self._prior_agents else -1
        spent = done * len(legal)
        if hint in values and best != hint:
            confirmed, extra = self._settle(view, best, hint, values, deadline)
            spent += extra
            if not confirmed:
                best = hint
        self.last = SearchStats(spent, time.perf_counter() - start, {a: len(v) for a, v in values.items()})
        return best

    def _halving_step(self, view: SeatView, legal: list[int]) -> int:
        """Paired sampling with successive halving: rounds of `PAIRED_MIN_SAMPLES` determinizations, each
        rolled out after every surviving move; after each round the worse half of the moves is dropped
        (the heuristic's move always stays), so the budget goes to the contenders. The survivors share
        every determinization, and the best replaces the heuristic's move only on `override` standard
        errors of their paired differences."""
        start = time.perf_counter()
        config = self.config
        deadline = start + config.time_limit if config.time_limit is not None else math.inf
        seat = self.seat
        hint = self._prior_agents[seat].step(view) if self._prior_agents else legal[0]
        candidates = list(legal)
        values: dict[int, list[float]] = {action: [] for action in legal}
        spent = 0
        done = 0
        while spent < config.iterations:
            for _ in range(PAIRED_MIN_SAMPLES):
                world = view.determinize(self.rng)
                for action in candidates:
                    state = world.clone()
                    state.apply_action(action)
                    values[action].append(self._rollout(state)[0][seat])
                spent += len(candidates)
                done += 1
            if deadline != math.inf and time.perf_counter() >= deadline:
                break
            if len(candidates) > 2:
                ranked = sorted(candidates, key=lambda action: -sum(values[action]) / len(values[action]))
                kept = ranked[: max(2, (len(ranked) + 1) // 2)]
                candidates = kept if hint in kept else [*kept, hint]
        best = max(candidates, key=lambda action: sum(values[action]) / len(values[action]))
        if best != hint:
            confirmed, extra = self._settle(view, best, hint, values, deadline)
            spent += extra
            if not confirmed:
                best = hint
        self.last = SearchStats(
            spent, time.perf_counter() - start, {action: len(v) for action, v in values.items()}
        )
        return best

    def _settle(
        self, view: SeatView, best: int, hint: int, values: dict[int, list[float]], deadline: float
    ) -> tuple[bool, int]:
        """Whether `best` beats the heuristic's move `hint` by `override` standard errors of their paired
        differences, sampling up to `config.extend` more determinizations for the two when the call is
        close (the gain between half the override and the override), or judging on fresh determinizations
        only with `config.confirm`; also the rollouts spent doing so."""
        override = self.config.override
        seat = self.seat
        if self.config.confirm:
            return self._confirm(view, best, hint)
        diffs = [b - h for b, h in zip(values[best], values[hint], strict=True)]
        spent = 0
        while True:
            score = self._paired_score(diffs)
            if score > override:
                return True, spent
            if score < override / 2 or spent >= 2 * self.config.extend or time.perf_counter() >= deadline:
                return False, spent
            for _ in range(PAIRED_MIN_SAMPLES):
                world = view.determinize(self.rng)
                gains = []
                for action in (best, hint):
                    state = world.clone()
                    state.apply_action(action)
                    gain = self._rollout(state)[0][seat]
                    values[action].append(gain)
                    gains.append(gain)
                diffs.append(gains[0] - gains[1])
            spent += 2 * PAIRED_MIN_SAMPLES

    def _confirm(self, view: SeatView, best: int, hint: int) -> tuple[bool, int]:
        """Whether `best` beats `hint` by `override` standard errors of paired differences measured on
        `config.confirm` fresh determinizations (none of the samples that picked it); the rollouts spent."""
        diffs = self.paired_differences(view, best, hint, self.config.confirm)
        return self._paired_score(diffs) > self.config.override, 2 * self.config.confirm

    def paired_differences(self, view: SeatView, move: int, other: int, count: int) -> list[float]:
        """The seat's rollout value after `move` minus after `other`, on `count` fresh determinizations
        (both moves from the same one)."""
        diffs = []
        seat = self.seat
        for _ in range(count):
            world = view.determinize(self.rng)
            gains = []
            for action in (move, other):
                state = world.clone()
                state.apply_action(action)
                gains.append(self._rollout(state)[0][seat])
            diffs.append(gains[0] - gains[1])
        return diffs

    def _paired_score(self, diffs: list[float]) -> float:
        """The mean of paired differences in standard errors (the variance floored at a small share of the
        largest difference seen, so a few equal values are not certainty); 0 without evidence (no
        differences, or differences too small for their spread to be represented)."""
        n = len(diffs)
        if n < 2:
            return 0.0
        mean = sum(diffs) / n
        variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        scale = max(abs(d) for d in diffs)
        if scale == 0:
            return 0.0
        error = math.sqrt(max(variance, _VARIANCE_FLOOR * scale * scale) / n)
        return mean / error if error > 0 else 0.0

    def _paired_evidence(self, diffs: list[float]) -> bool:
        """Whether the mean of paired differences is `override` standard errors above zero (`_paired_score`)."""
        return self._paired_score(diffs) > self.config.override

    def _evidence(self, chosen: _Node, hint: _Node, bounds: list[float]) -> bool:
        """With a prior, the search overrides the heuristic's move only when the chosen move's mean return
        beats the heuristic move's by `config.override` standard errors of the difference (each from the
        edge's sample variance, floored so that a few identical returns do not count as certainty).
        Rollouts that say nothing then leave the heuristic's plan alone."""
        if hint.visits == 0:
            return True
        if chosen.visits < 2 or hint.visits < 2 or bounds[1] <= bounds[0]:
            return False
        span2 = (bounds[1] - bounds[0]) ** 2
        error = math.sqrt(_variance(chosen, span2) / chosen.visits + _variance(hint, span2) / hint.visits)
        gap = chosen.total / chosen.visits - hint.total / hint.visits
        return gap > self.config.override * error * (bounds[1] - bounds[0])

    def _iterate(self, root: _Node, state: State, bounds: list[float]) -> int:
        """One determinization: select with UCB over available children, expand one, roll out, back up.
        Returns how many actions it applied."""
        applied = 0
        rng = self.rng
        node = root
        path: list[_Node] = []
        c = self.config.exploration
        bias = self.config.prior
        prior_agents = self._prior_agents
        lo, hi = bounds
        if hi > lo:
            span = hi - lo
        else:
            lo, span = 0.0, 1.0
        while True:
            player = state.current_player()
            if player == TERMINAL:
                break
            applied += 1
            if player == CHANCE:
                state.apply_chance(rng.random())
                continue
            legal = state.legal_actions()
            children = node.children
            keys = [a * _SEATS + player for a in legal]
            hint = node.hint
            if prior_agents and hint < 0:
                hint = node.hint = prior_agents[player].step(SeatView.of_sample(state, player)) * _SEATS + player
            untried = [k for k in keys if k not in children]
            for k in keys:
                child = children.get(k)
                if child is not None:
                    child.avail += 1
            if untried:
                key = hint if hint in untried else untried[int(rng.random() * len(untried))]
                child = _Node(player)
                child.avail = 1
                children[key] = child
                state.apply_action(key // _SEATS)
                path.append(child)
                break
            best_score = -math.inf
            key = keys[0]
            for k in keys:
                child = children[k]
                score = (child.total / child.visits - lo) / span + c * math.sqrt(
                    math.log(child.avail) / child.visits
                )
                if k == hint:
                    score += bias / (child.visits + 1)
                if score > best_score:
                    best_score = score
                    key = k
            node = children[key]
            path.append(node)
            state.apply_action(key // _SEATS)
        values, rolled = self._rollout(state)
        low, high = min(values), max(values)
        if low < bounds[0]:
            bounds[0] = low
        if high > bounds[1]:
            bounds[1] = high
        for edge in path:
            value = values[edge.seat]
            edge.visits += 1
            edge.total += value
            edge.squares += value * value
        return applied + rolled

    def _rollout(self, state: State) -> tuple[list[float], int]:
        """Play to the end (or the horizon, with an evaluator): the per-seat values to back up, and how
        many actions were applied. Bound methods are looked up once: this loop is the search's hot path."""
        random_ = self.rng.random
        agents = self._rollout_agents
        guided = math.inf if self.config.rollout == "heuristic" else self.config.guided
        evaluator = self.evaluator
        horizon = (
            self.config.horizon if evaluator is not None and self.config.horizon is not None else math.inf
        )
        current = state.current_player
        apply = state.apply_action
        apply_chance = state.apply_chance
        legal_actions = state.legal_actions
        moves = 0
        applied = 0
        while True:
            player = current()
            if player == TERMINAL:
                return state.returns(), applied
            if player == CHANCE:
                apply_chance(random_())
            elif moves >= horizon and evaluator is not None:
                return evaluator(state), applied
            else:
                if agents and moves < guided:
                    apply(agents[player].step(SeatView.of_sample(state, player)))
                else:
                    legal = legal_actions()
                    apply(legal[int(random_() * len(legal))])
                moves += 1
            applied += 1


PAIRED_MIN_SAMPLES = 8
"""The fewest determinizations a paired search compares its moves on."""

_VARIANCE_FLOOR = 0.01
"""The smallest variance (in normalised return units, where 1/4 is the most a [0, 1] return can have)
credited to an edge when judging evidence."""


def _variance(edge: _Node, span2: float) -> float:
    """The sample variance of an edge's returns, normalised by the squared range of returns seen."""
    mean = edge.total / edge.visits
    variance = (edge.squares - edge.visits * mean * mean) / (edge.visits - 1) / span2
    return max(variance, _VARIANCE_FLOOR)


def _game_heuristic(game: Game, seat: int, seed: int) -> Agent:
    spec = spec_of(game)
    if spec is None or spec.heuristic is None:
        raise ValueError(f"{game.game_id} has no heuristic bot (its GameSpec declares none)")
    return spec.heuristic.load()(game, seat, seed)


def _has_heuristic(game: Game) -> bool:
    spec = spec_of(game)
    return spec is not None and spec.heuristic is not None


def _game_evaluator(game: Game) -> Evaluator | None:
    spec = spec_of(game)
    return spec.evaluate.load() if spec is not None and spec.evaluate is not None else None


# The named levels. `action_budget` bounds the work of one decision in long games (reproducibly), so a
# `hard` decision stays under one second on one core; a game sets its own budgets in its GameSpec
# (`search_levels`, `player_count_levels`).
LEVELS: dict[str, SearchConfig] = {
    "ismcts": SearchConfig(iterations=1000),
    "hard": SearchConfig(iterations=1000, action_budget=60_000, prior=1.0),
}
# Games with an `evaluate` set `hard` to paired sampling in their GameSpec (`warcards.engine.spec.
# PAIRED_SEARCH`): every determinization is rolled out after each legal move, the rollout played by the
# game's heuristic in every seat for `horizon` player actions and then scored by `evaluate`, and the
# heuristic's move stands unless another beats it by `override` standard errors of the paired
# differences; `iterations` counts rollouts. Budgets are set per game so that a decision stays well under
# a second on one core (docs/bots.md).


def level_config(level: str, game: Game) -> SearchConfig:
    """The search configuration of a named level for `game`: the level's defaults with the settings of the
    game's spec for that level, and for its player count, over them."""
    try:
        base = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown ismcts level {level!r}; levels are: {', '.join(LEVELS)}") from None
    spec = spec_of(game)
    settings = spec.search_settings(level, game.num_players) if spec is not None else {}
    try:
        return replace(base, **settings)  # type: ignore[arg-type]  # a spec's search settings are name -> value pairs checked at run time (a wrong name raises TypeError below)
    except TypeError as error:
        raise ValueError(f"{game.game_id}: search level {level!r} sets a field SearchConfig lacks: {error}") from None


def build(level: str, game: Game, seat: int, seed: int, **overrides: object) -> ISMCTSAgent:
    """An ISMCTS bot at `level` (optionally with `SearchConfig` fields overridden)."""
    config = level_config(level, game)
    if overrides:
        config = replace(config, **overrides)  # type: ignore[arg-type]  # overrides are SearchConfig fields by name, checked by replace() at run time
    evaluator = _game_evaluator(game) if config.horizon is not None else None
    if (config.prior > 0 or config.guided > 0) and not _has_heuristic(game):
        config = replace(config, prior=0.0, guided=0)
    return ISMCTSAgent(game, seat, seed, config, name=level, evaluator=evaluator)


def _builder(level: str) -> AgentBuilder:
    def make(game: Game, seat: int, seed: int) -> Agent:
        return build(level, game, seat, seed)

    make.__name__ = f"make_{level}"
    return make


AGENT_BUILDERS: dict[str, AgentBuilder] = {level: _builder(level) for level in LEVELS}


@dataclass(frozen=True)
class SearchBench:
    """Search speed of one level on one game: simulations per second and seconds per decision, in CPU
    time of the searching process (what one free core would take; other load on the machine does not
    inflate it)."""

    game: str
    level: str
    decisions: int
    simulations_per_s: float
    seconds_per_decision: float
    worst_seconds: float


def search_positions(game: Game, count: int, seed: int) -> list[State]:
    """`count` positions with a real choice, taken at random from seeded random games."""
    rng = random.Random(seed)
    positions: list[State] = []
    while len(positions) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(positions) < count:
            if state.current_player() == CHANCE:
                state.apply_chance(rng.random())
                continue
            legal = state.legal_actions()
            if len(legal) > 1 and rng.random() < 0.05:
                positions.append(state.clone())
            state.apply_action(legal[rng.randrange(len(legal))])
    return positions


def benchmark(game: Game, level: str = "hard", decisions: int = 10, seed: int = 0) -> SearchBench:
    """Time `decisions` searches at `level` from positions of seeded random games (real choices only), in
    CPU seconds of this process."""
    simulations = 0
    total = worst = 0.0
    for index, position in enumerate(search_positions(game, decisions, seed)):
        seat = position.current_player()
        agent = build(level, game, seat, seed + index)
        start = time.process_time()
        agent.step(SeatView(position, seat))
        spent = time.process_time() - start
        simulations += agent.last.iterations
        total += spent
        worst = max(worst, spent)
    return SearchBench(game.game_id, level, decisions, simulations / total, total / decisions, worst)
