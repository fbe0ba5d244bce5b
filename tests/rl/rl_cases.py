"""The games the RL adapter tests run on: every registered game and option set, plus the two toy games."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import warcards
from tests.rl import toygame, toygame_encoded
from warcards.engine import Game
from warcards.rl.common import GameSource

TOY = GameSource.from_module("toy-commit", toygame.OPTIONS, toygame.CONFORMANCE_CONFIGS, toygame.make_game)
TOY_ENCODED = GameSource.from_module(
    "toy-commit-encoded", toygame_encoded.OPTIONS, toygame_encoded.CONFORMANCE_CONFIGS, toygame_encoded.make_game
)


@dataclass(frozen=True)
class Case:
    """One game with one option set."""

    source: GameSource
    config: Mapping[str, Any]

    @property
    def label(self) -> str:
        options = ",".join(f"{key}={value}" for key, value in sorted(self.config.items()))
        return f"{self.source.game_id}[{options}]"

    @property
    def registered(self) -> bool:
        return self.source.game_id in warcards.games()

    def game(self) -> Game:
        return self.source.load(**self.config)


def sources() -> list[GameSource]:
    return [*(GameSource.registered(game_id) for game_id in warcards.games()), TOY, TOY_ENCODED]


def covering_cases() -> list[Case]:
    """Per game, a few option sets that between them give every option every value its conformance sets
    give it (so every variant and player count), chosen greedily. The libraries' checks play whole games
    (thousands of actions in Cards of War's long variants), so they run on these, not on all ~140 sets."""
    cases: list[Case] = []
    for source in sources():
        wanted = {(key, repr(value)) for config in source.configs for key, value in config.items()}
        remaining = list(source.configs)
        chosen = [remaining.pop(0)]
        wanted -= {(key, repr(value)) for key, value in chosen[0].items()}
        while wanted:
            best = max(remaining, key=lambda config: len(wanted & {(k, repr(v)) for k, v in config.items()}))
            remaining.remove(best)
            chosen.append(best)
            wanted -= {(key, repr(value)) for key, value in best.items()}
        cases.extend(Case(source, config) for config in chosen)
    return cases


def first_cases() -> list[Case]:
    """Every game once, with its first option set (for the slower checks)."""
    return [Case(source, source.configs[0]) for source in sources()]


COVERING_CASES = covering_cases()
FIRST_CASES = first_cases()
