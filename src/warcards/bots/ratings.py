"""The bots' fixed published ratings: one per ladder level, game and player-count group (or variant),
measured from our own games (docs/bots.md, "Published ratings"; `scripts/ladder_pairs.py` reruns it).

    published_rating("naval-war", "hard", players=4)   # -> an int on a lichess-like (Elo) scale
    display(published_rating("cards-of-war", "easy"))   # -> "≈ 1,350"

The scale: `medium` (the game's rule-of-thumb bot) is 1500 in every game and group; each other level sits
`400 log10(s / (1 - s))` above the level below it, where `s` is its measured score against that level
(wins 1, ties 1/2, over duplicate deals with every seat rotation, counted as (points + 1) / (games + 2)).
So 200 points mean the upper bot scores about 76% against the lower one, 400 points about 91%, as on
lichess or FIDE. Ratings compare within one game and group only: a 1,700 in Naval War says nothing about a
1,700 in Cards of War.

openskill (the players' ratings, issue 33) rates on its own scale: in a two-sided game between settled
ratings, Plackett–Luce gives P(a beats b) = 1 / (1 + exp(-(mu_a - mu_b) / c)) with c = beta·√2 (beta =
25/6), the same logistic curve, so one openskill mu point is `ELO_PER_MU` (≈ 29.5) rating points here and
`rating_from_mu` / `mu_from_rating` convert between them (mu 25, openskill's starting value, is 1500).
"""

from __future__ import annotations

import math

from warcards.bots.ladder import ALIASES, ladder_names

ANCHOR_LEVEL = "medium"
"""The level fixed at `ANCHOR_RATING` in every game and group."""

ANCHOR_RATING = 1500

FLOOR = 100
"""No published rating is lower: where the chain of steps goes below it (`random` in Race to Messina, which
the heuristic beats in 99 games of 100), `random` is shown at the floor."""

OPENSKILL_MU = 25.0
OPENSKILL_BETA = 25.0 / 6.0
ELO_PER_MU = 400.0 / math.log(10.0) / (OPENSKILL_BETA * math.sqrt(2.0))
"""Rating points per openskill mu point (two sides, settled ratings): about 29.5."""


def elo_step(points: float, games: int) -> float:
    """The rating difference a score of `points` in `games` gives (logistic, 400 points = 10:1 odds), with
    the score taken as (points + 1) / (games + 2) so that a sweep gives a finite step."""
    if games < 0 or not 0.0 <= points <= games:
        raise ValueError(f"points must be between 0 and games ({games}), got {points}")
    share = (points + 1.0) / (games + 2.0)
    return 400.0 * math.log10(share / (1.0 - share))


def rating_from_mu(mu: float) -> float:
    """An openskill mean on this scale (openskill's starting mu 25 is 1500)."""
    return ANCHOR_RATING + (mu - OPENSKILL_MU) * ELO_PER_MU


def mu_from_rating(rating: float) -> float:
    """The openskill mean of a rating on this scale (the inverse of `rating_from_mu`)."""
    return OPENSKILL_MU + (rating - ANCHOR_RATING) / ELO_PER_MU


DEFAULT_GROUP: dict[str, str] = {
    "race-to-messina": "invasion",
    "med-sirocco": "4p",
    "naval-war": "4p",
    "cards-of-war": "2p",
}
"""The group a game's default options play (`players=None`, no variant)."""

PUBLISHED: dict[str, dict[str, dict[str, int]]] = {
    "race-to-messina": {
        "invasion": {"random": 100, "beginner": 526, "easy": 1013, "medium": 1500, "hard": 1838},
        "race": {"random": 100, "beginner": 661, "easy": 1105, "medium": 1500, "hard": 1603},
        "sicily": {"random": 1207, "beginner": 1337, "easy": 1444, "medium": 1500, "hard": 1520},
    },
    "med-sirocco": {
        "2p": {"random": 896, "beginner": 1250, "easy": 1437, "medium": 1500, "hard": 2029},
        "4p": {"random": 1003, "beginner": 1302, "easy": 1429, "medium": 1500, "hard": 1789},
    },
    "naval-war": {
        "2p": {"random": 962, "beginner": 1275, "easy": 1417, "medium": 1500, "hard": 1550},
        "4p": {"random": 813, "beginner": 1270, "easy": 1437, "medium": 1500, "hard": 1574},
    },
    "cards-of-war": {
        "2p": {"random": 540, "beginner": 1019, "easy": 1287, "medium": 1500, "hard": 1592},
    },
}
"""game id -> group (a Race to Messina variant, or a player count "2p"/"4p") -> level -> rating, measured by
`scripts/ladder_pairs.py` (docs/bots.md, "Published ratings")."""


NOT_SHOWN: frozenset[tuple[str, str, str]] = frozenset()
"""(game, group, level) where the level's score against the level below it has a 95% interval reaching 1/2
(docs/bots.md, "Every adjacent pair"): not shown to be stronger — none today (Naval War's 2-player `hard`,
the last, was shown above `medium` over 320 games). Its rating is the lower level's where its
score was under 1/2, so a level is never published below the one under it."""


def rating_group(game_id: str, players: int | None = None, variant: str | None = None) -> str:
    """The measured group that stands for `game_id` with `players` seats (and `variant`, in Race to Messina).

    Race to Messina: the variant (`invasion`, `race`, `sicily`); 3 players is Sicily, 2 players or none the
    variant given or `invasion`. Med Sirocco and Naval War: "2p" with 2 players, else "4p" (3, 5 and more
    players are not measured and take the 4-player figures, the multi-player game). Cards of War: "2p".
    """
    groups = PUBLISHED.get(game_id)
    if groups is None:
        raise ValueError(f"no published ratings for game {game_id!r}; games are: {', '.join(PUBLISHED)}")
    if game_id == "race-to-messina":
        if variant is None:
            variant = "sicily" if players == 3 else DEFAULT_GROUP[game_id]
        if variant not in groups:
            raise ValueError(f"unknown {game_id} variant {variant!r}; variants are: {', '.join(groups)}")
        seats = 3 if variant == "sicily" else 2
        if players is not None and players != seats:
            raise ValueError(f"{game_id}'s {variant} is a {seats}-player game, not {players!r}")
        return variant
    if variant is not None:
        raise ValueError(f"{game_id} has no variants; give players only")
    if players is None:
        return DEFAULT_GROUP[game_id]
    if isinstance(players, bool) or not isinstance(players, int) or players < 2:
        raise ValueError(f"players must be a whole number of at least 2, got {players!r}")
    return "2p" if players == 2 and "2p" in groups else DEFAULT_GROUP[game_id]


def published_rating(game_id: str, level: str, players: int | None = None, variant: str | None = None) -> int:
    """The fixed rating of bot `level` (a ladder level, or its alias `heuristic`) in `game_id` with `players`
    seats (None: the game's default; Race to Messina: `variant`, or 3 players for Sicily), on the scale of
    this module's docstring: `medium` is 1500. Raises ValueError naming what is allowed."""
    ratings = PUBLISHED.get(game_id, {}).get(rating_group(game_id, players, variant), {})
    name = ALIASES.get(level, level)
    if name not in ratings:
        raise ValueError(f"no published rating for bot level {level!r}; levels are: {', '.join(ladder_names())}")
    return ratings[name]


def display(rating: int) -> str:
    """A published rating as shown to a player: "≈ 1,650" (approximate: a measured bot, not a rated player)."""
    return f"≈ {rating:,}"
