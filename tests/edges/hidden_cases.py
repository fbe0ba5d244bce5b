"""Shared helpers for the hidden-information edge tests: seeded positions of every game and configuration,
and the card ids a text names or an observation shows."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from functools import cache

import warcards
from warcards.engine.api import CHANCE, Game, State, sample_chance
from warcards.engine.registry import conformance_configs, games

_TOKEN = re.compile(r"[A-Za-z0-9_./\-]+")


def configs() -> list[tuple[str, dict[str, object]]]:
    """Every registered game with each of its conformance configurations."""
    return [(game_id, dict(options)) for game_id in games() for options in conformance_configs(game_id)]


def config_id(case: tuple[str, dict[str, object]]) -> str:
    game_id, options = case
    return game_id + "".join(f"-{key}={value}" for key, value in sorted(options.items()))


@cache
def _game(game_id: str, options: str) -> Game:
    return warcards.load_game(game_id, **json.loads(options))


def load(case: tuple[str, dict[str, object]]) -> Game:
    return _game(case[0], json.dumps(case[1], sort_keys=True))


@cache
def card_tokens(game: Game) -> frozenset[str]:
    """Every word that names one card (or, in Naval War, a card kind or a ship) in this game."""
    tokens = {card for cards in game.new_initial_state().zones().values() for card in cards}
    table = getattr(game, "table", None)
    if hasattr(table, "kind_codes"):
        tokens |= set(table.kind_codes) | set(table.ship_ids)
    return frozenset(tokens)


def named_cards(game: Game, text: str) -> set[str]:
    """The card words of `text`."""
    names = card_tokens(game)
    return {word.rstrip(".") for word in _TOKEN.findall(text)} & names


def shown_cards(game: Game, observation: object) -> set[str]:
    """The card words an observation shows (Naval War: a card's kind too, since its id names it)."""
    shown = named_cards(game, json.dumps(observation))
    return shown | {card.rsplit("-", 1)[0] for card in shown if "-" in card}


def positions(game: Game, seed: int, count: int, share: float = 0.04) -> Iterator[tuple[State, int]]:
    """(state, the action taken there) at about `share` of the steps of seeded random playouts, chance
    nodes included, until `count` were given; each state is a clone the caller may keep."""
    rng = random.Random(seed)
    given = 0
    while given < count:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal() and given < count and steps < 4000:
            if state.current_player() == CHANCE:
                action = sample_chance(state.chance_outcomes(), rng.random())
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
            if rng.random() < share:
                given += 1
                yield state.clone(), action
            state.apply_action(action)
            steps += 1
