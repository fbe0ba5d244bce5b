"""The bot ladder a player chooses from, weakest first, and the weaker rungs' bot.

`LADDER` is the one list of levels: `play --help`, `warcards games` and docs/bots.md read it. Each rung
beats the one before it, with its score's 95% interval above 1/2, in every game and variant, as measured
pair by pair in docs/bots.md (`scripts/ladder_pairs.py` reruns it; `warcards.bots.ratings.NOT_SHOWN` would
list a level that is not, and lists none).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from warcards.engine.agents import Agent, SeatView


@dataclass(frozen=True)
class Rung:
    """One level of the ladder: the bot's name and a one-line note of its strength."""

    name: str
    note: str


LADDER: tuple[Rung, ...] = (
    Rung("random", "moves at random: for learning the rules"),
    Rung("beginner", "the rule-of-thumb bot with half its moves at random; beats random in every game"),
    Rung("easy", "the rule-of-thumb bot with one move in five at random; beats beginner in every game"),
    Rung("medium", "the game's rule-of-thumb bot (also called heuristic); beats easy in every game"),
    Rung(
        "hard",
        "searches from medium's move, 0.1-0.4 s a move on one core; beats medium in every game",
    ),
)
"""The levels a player chooses from, weakest first; each beats the one before it in every game and variant."""

ALIASES: dict[str, str] = {"heuristic": "medium"}
"""Other names of ladder bots (the same bot, the same moves for the same seed)."""

STUDY_BOTS: dict[str, str] = {
    "ismcts": "plain ISMCTS with random rollouts, for study, not a level: 2-6 s a move in most games",
    "openspiel-ismcts": "OpenSpiel's ISMCTS, for comparisons (needs the rl extra)",
}
"""Bots kept by name for research and comparisons, not levels (slow, or needing an extra)."""

BLUNDER_RATES: dict[str, float] = {"beginner": 0.5, "easy": 0.2}
"""How often each weaker rung plays a random legal move instead of the heuristic's."""


class BlunderAgent:
    """The game's heuristic bot that, at each real choice, plays a uniformly random legal move instead with
    probability `rate` (its own RNG, seeded by `seed`)."""

    def __init__(self, heuristic: Agent, name: str, rate: float, seed: int) -> None:
        if not 0.0 <= rate <= 1.0:
            raise ValueError(f"blunder rate must be between 0 and 1, got {rate}")
        self.heuristic = heuristic
        self.name = name
        self.rate = rate
        self.rng = random.Random(f"blunders:{seed}")

    def step(self, view: SeatView) -> int:
        legal = view.legal_actions()
        if len(legal) > 1 and self.rng.random() < self.rate:
            return legal[self.rng.randrange(len(legal))]
        return self.heuristic.step(view)


def ladder_names() -> list[str]:
    """The ladder's bot names, weakest first."""
    return [rung.name for rung in LADDER]
