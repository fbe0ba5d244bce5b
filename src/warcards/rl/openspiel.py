"""Every warcards game as an OpenSpiel Python game.

>>> import pyspiel
>>> from warcards.rl import openspiel
>>> openspiel.register()                                   # doctest: +SKIP
['warcards_race_to_messina', ...]
>>> game = pyspiel.load_game("warcards_race_to_messina")   # doctest: +SKIP
>>> pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)  # doctest: +SKIP

Short names are `warcards_<game_id with underscores>`; the game's options (those with int, float, bool or
string defaults) are OpenSpiel game parameters (`warcards_race_to_messina(variant=invasion)`).

Game type, declared honestly for every game:
- sequential, explicit stochastic (every shuffle, draw and die is a chance node with its probabilities),
  imperfect information (hidden hands), terminal rewards;
- utility: the game spec's `utility` (`"zero_sum"`, `"constant_sum"`, `"general_sum"` or `"identical"`;
  `GameSpec` defaults to general-sum, the claim that is always true);
- utility range: the spec's `utility_bounds(game) -> (min, max)`, else unbounded (`-inf, inf`), since
  nothing else would be a promise; `utility_sum` from the spec's `utility_sum` for constant-sum games (0
  for zero-sum).

Views: the observation string of a seat is its view (`state.observe(seat)`) as canonical JSON; the
information-state string adds the seat's own past actions, so it has perfect recall even where a view
holds only the present. The observation tensor is the RL encoder's vector (`warcards.rl.encoding`).
`resample_from_infostate` is the game's `determinize`, so OpenSpiel's ISMCTS (`open_spiel.python.
algorithms.ismcts.ISMCTSBot`) plays our games.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from copy import deepcopy
from typing import Any

import numpy as np

try:
    import pyspiel
except ModuleNotFoundError as error:
    raise ModuleNotFoundError(
        f'warcards.rl.openspiel needs the rl extra (pip install -e ".[rl]" in the warcards checkout): {error.name} is not installed',
        name=error.name,
    ) from error

from warcards.engine.api import Game, State
from warcards.engine.registry import games
from warcards.rl.common import GameSource, snake_name
from warcards.rl.encoding import Encoder, encoder_for, spec_for

_UTILITIES = {
    "zero_sum": pyspiel.GameType.Utility.ZERO_SUM,
    "constant_sum": pyspiel.GameType.Utility.CONSTANT_SUM,
    "general_sum": pyspiel.GameType.Utility.GENERAL_SUM,
    "identical": pyspiel.GameType.Utility.IDENTICAL,
}
_PARAMETER_TYPES = (bool, int, float, str)
_registered: dict[str, GameSource] = {}


def short_name(game_id: str) -> str:
    """The OpenSpiel name of a warcards game: `warcards_race_to_messina`."""
    return f"warcards_{snake_name(game_id)}"


def register(game_ids: list[str] | None = None) -> list[str]:
    """Register the registry's games (all by default) with OpenSpiel; idempotent. Returns the short names."""
    return [register_source(GameSource.registered(game_id)) for game_id in (game_ids or games())]


def register_source(source: GameSource) -> str:
    """Register one game source with OpenSpiel (idempotent) and return its short name."""
    name = short_name(source.game_id)
    if name in _registered:
        return name
    game_type = _game_type(source, name)
    spiel_class = _game_class(source, game_type)
    pyspiel.register_game(game_type, spiel_class)
    _registered[name] = source
    return name


def from_game(game: Game) -> WarcardsSpielGame:
    """An OpenSpiel game for an already built warcards game (its source must be registered for
    serialization; search and simulation need no registration)."""
    return _game_class(None, _type_for(game, short_name(game.game_id), [game.num_players], {}))(
        {}, built=game
    )


def _game_type(source: GameSource, name: str) -> pyspiel.GameType:
    counts = sorted({source.load(**config).num_players for config in source.configs} or {2})
    defaults = {
        spec.name: spec.default for spec in source.options if isinstance(spec.default, _PARAMETER_TYPES)
    }
    return _type_for(source.load(), name, counts, defaults)


def _type_for(game: Game, name: str, counts: list[int], defaults: Mapping[str, Any]) -> pyspiel.GameType:
    spec = spec_for(game)
    utility = spec.utility if spec is not None else "general_sum"
    return pyspiel.GameType(
        short_name=name,
        long_name=f"warcards {game.title or game.game_id}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=_UTILITIES[utility],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(counts),
        min_num_players=min(counts),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(defaults),
    )


def _game_info(game: Game) -> pyspiel.GameInfo:
    spec = spec_for(game)
    low, high = -float("inf"), float("inf")
    if spec is not None and spec.utility_bounds is not None:
        low, high = spec.utility_bounds.load()(game)
    utility = spec.utility if spec is not None else "general_sum"
    utility_sum: float | None = None
    if utility == "zero_sum":
        utility_sum = 0.0
    elif spec is not None and spec.utility_sum is not None:
        utility_sum = float(spec.utility_sum)
    return pyspiel.GameInfo(
        num_distinct_actions=game.num_distinct_actions,
        max_chance_outcomes=game.max_chance_outcomes,
        num_players=game.num_players,
        min_utility=float(low),
        max_utility=float(high),
        utility_sum=utility_sum,
        max_game_length=game.max_game_length,
    )


class WarcardsSpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type hints: pyspiel.Game is Any
    """A warcards game seen by OpenSpiel (one class per game is made by `register_source`)."""

    game_type: pyspiel.GameType
    source: GameSource | None

    def __init__(self, params: Mapping[str, Any] | None = None, *, built: Game | None = None) -> None:
        options = dict(params or {})
        if built is None:
            assert self.source is not None
            built = self.source.load(**options)
        self.warcards_game = built
        self.encoder: Encoder = encoder_for(built)
        super().__init__(self.game_type, _game_info(built), options)

    def new_initial_state(self) -> WarcardsSpielState:
        return WarcardsSpielState(self, _Holder(self.warcards_game.new_initial_state(), self.num_players()))

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Mapping[str, Any] | None = None
    ) -> WarcardsObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; got {dict(params)}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return WarcardsObserver(self.encoder, perfect_recall)


def _game_class(source: GameSource | None, game_type: pyspiel.GameType) -> type[WarcardsSpielGame]:
    name = "".join(part.capitalize() for part in game_type.short_name.split("_")) + "Game"
    cls: type[WarcardsSpielGame] = type(
        name, (WarcardsSpielGame,), {"game_type": game_type, "source": source}
    )
    return cls


class _Holder:
    """The warcards state, each seat's own actions, and each seat's view of the present state (cached until
    the next action). OpenSpiel's clone deep-copies it, which is `clone()` here."""

    __slots__ = ("own", "state", "views")

    def __init__(self, state: State, players: int) -> None:
        self.state = state
        self.own: list[list[int]] = [[] for _ in range(players)]
        self.views: dict[int, tuple[dict[str, Any], str]] = {}

    def view(self, player: int) -> tuple[dict[str, Any], str]:
        """The seat's view and its canonical JSON."""
        cached = self.views.get(player)
        if cached is None:
            view = self.state.observe(player)
            cached = (view, json.dumps(view, sort_keys=True, separators=(",", ":")))
            self.views[player] = cached
        return cached

    def __deepcopy__(self, memo: dict[int, Any]) -> _Holder:
        other = _Holder.__new__(_Holder)
        other.state = self.state.clone()
        other.own = [actions[:] for actions in self.own]
        other.views = dict(self.views)
        return other


class WarcardsSpielState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no type hints: pyspiel.State is Any
    """A warcards state behind OpenSpiel's State API. CHANCE and TERMINAL have the same values in both."""

    def __init__(self, game: WarcardsSpielGame, holder: _Holder) -> None:
        super().__init__(game)
        self.holder = holder

    def current_player(self) -> int:
        return self.holder.state.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self.holder.state.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.holder.state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        holder = self.holder
        player = holder.state.current_player()
        holder.state.apply_action(action)
        holder.views = {}
        if player >= 0:
            holder.own[player].append(action)

    def _action_to_string(self, player: int, action: int) -> str:
        """The game's notation; OpenSpiel may ask about an action out of its context (a past one),
        which a game may refuse, so then the number is named."""
        try:
            return self.holder.state.action_to_string(action)
        except ValueError:
            return f"{'chance outcome' if player == pyspiel.PlayerId.CHANCE else 'action'} {action}"

    def is_terminal(self) -> bool:
        return self.holder.state.is_terminal()

    def returns(self) -> list[float]:
        return [float(value) for value in self.holder.state.returns()]

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> WarcardsSpielState:
        """A state drawn from `player_id`'s information state: the game's `determinize` (seeded by the sampler)."""
        rng = random.Random(int(probability_sampler() * 2**53))
        holder = _Holder(self.holder.state.determinize(player_id, rng), len(self.holder.own))
        holder.own = deepcopy(self.holder.own)
        return WarcardsSpielState(self.get_game(), holder)

    def __str__(self) -> str:
        state = self.holder.state
        return json.dumps({"position": state.position(), "zones": state.zones()}, sort_keys=True)


class WarcardsObserver:
    """OpenSpiel's PyObserver: strings from the seat's view, the tensor from the RL encoder."""

    def __init__(self, encoder: Encoder, perfect_recall: bool) -> None:
        self.encoder = encoder
        self.perfect_recall = perfect_recall
        if perfect_recall:
            self.tensor: np.ndarray | None = None
            self.dict: dict[str, np.ndarray] = {}
        else:
            size = int(np.prod(encoder.shape))
            self.tensor = np.zeros(size, np.float32)
            self.dict = {"observation": self.tensor.reshape(encoder.shape)}

    def set_from(self, state: WarcardsSpielState, player: int) -> None:
        if self.tensor is not None:
            self.tensor[:] = self.encoder.encode(state.holder.view(player)[0]).reshape(-1)

    def string_from(self, state: WarcardsSpielState, player: int) -> str:
        holder = state.holder
        view = holder.view(player)[1]
        if self.perfect_recall:
            return f"p{player} {view} own:{holder.own[player]}"
        return f"p{player} {view}"


__all__ = [
    "WarcardsSpielGame",
    "WarcardsSpielState",
    "from_game",
    "register",
    "register_source",
    "short_name",
]
