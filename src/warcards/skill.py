"""The rating scale players read: one mapping from an openskill rating (mu, sigma) to a lichess-like number.

The server's ratings (`warcards.server.ratings`) and the bots' published ratings (docs/bots.md) both go
through these functions, so "≈ 1,650" beside a bot level and "1,512" on a profile are the same scale.
openskill's defaults (mu 25, sigma 25/3) map to 1500 ± 246 (one mu point is about 29.5 points).
"""

from __future__ import annotations

from openskill.models import PlackettLuce

from warcards.bots.ratings import ELO_PER_MU

BASE = 1500
"""The display rating of openskill's default mu (25)."""
POINTS_PER_MU = ELO_PER_MU
"""Display points per unit of mu: the logistic (Elo) scale the bots' published ratings are measured on
(`warcards.bots.ratings.ELO_PER_MU`, about 29.5), so a player's number and a bot's "≈ 1,650" compare."""
DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0
PROVISIONAL_SIGMA = 5.0
"""A rating is provisional (shown with a "?") while its sigma is above this: about 15 two-player games
against players of a similar rating (measured with openskill 6.2.0's PlackettLuce)."""
BOT_SIGMA = 1.0
"""The sigma a bot enters a rated game with: its published rating is measured, not guessed (it never moves)."""


def model() -> PlackettLuce:
    """The openskill model every rating uses (PlackettLuce: any number of players, ties allowed)."""
    return PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)


def display_rating(mu: float, sigma: float = DEFAULT_SIGMA) -> int:
    """The number a player reads for a rating (sigma does not change it: see `is_provisional`)."""
    del sigma
    return round(BASE + POINTS_PER_MU * (mu - DEFAULT_MU))


def mu_of_display(rating: float) -> float:
    """The mu whose display rating is `rating` (a bot's published rating enters a game as this mu)."""
    return DEFAULT_MU + (rating - BASE) / POINTS_PER_MU


def conservative(mu: float, sigma: float) -> float:
    """The leaderboard's order: mu − 3σ, on the display scale (a new rating starts at 0 and climbs as
    games make it surer, so a lucky first win does not top the board)."""
    return BASE + POINTS_PER_MU * (mu - 3 * sigma - DEFAULT_MU)


def is_provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA
