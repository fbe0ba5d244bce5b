"""Ratings (docs/server.md, "Ratings"): what a rated game's result does to its accounts' openskill ratings,
in the transaction that records the result (`Store.finish_table`), and the queries of the profile and
leaderboard routes.

- One rating per account, game and player-count group (`group_of`): '' where the game does not change with
  the count; Med Sirocco and Naval War have groups.
- Places from the result (`places`): the winners share first place; where the game ranks the others by
  score (Med Sirocco's VP, Naval War's points), the scores order the rest; elsewhere they share second.
- Bot seats play at their fixed published rating (`bot_rating`); only accounts' ratings move.
- A game in which a stand-in bot played a move, or one account held two seats, is not rated (the result
  says why).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Any, Literal

from openskill.models import PlackettLuceRating
from pydantic import BaseModel
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from warcards.bots.ratings import published_rating
from warcards.server.db import (
    AccountRow,
    EventRow,
    RatingChangeRow,
    RatingRow,
    SeatRow,
    TableRow,
    _seconds,
    now,
)
from warcards.server.games import shared_game
from warcards.server.protocol import RatingChange
from warcards.skill import BOT_SIGMA, conservative, display_rating, is_provisional, model, mu_of_display

GROUPS: dict[str, tuple[str, ...]] = {
    "cards-of-war": ("",),
    "race-to-messina": ("",),
    "med-sirocco": ("3-6p", "2p"),
    "naval-war": ("3-9p", "2p", "fleets"),
}
"""Each game's rating groups, the group of its default options first. Cards of War and Race to Messina are
two-player games (Race to Messina's variants are scenarios of one duel: one rating). Med Sirocco with 2 players
uses the rules of 4.0, a different game from the 3-6 player free-for-all. Naval War with 2 is a documented
duel, 3-9 a free-for-all, and fleet play a team game."""

RANKED_BY_SCORE = frozenset({"med-sirocco", "naval-war"})
"""Games whose non-winners are ordered by their scores (most first); in the others they share second."""

UNRATED_STAND_IN = "not rated: a stand-in bot played a move for a player who ran out of time"
UNRATED_TWO_SEATS = "not rated: one account held more than one seat"
UNRATED_GUEST = "not rated: a person seat was held without an account"


def group_of(game_id: str, options: dict[str, Any]) -> str:
    """The rating group of a table's game and options (`GROUPS`)."""
    players = shared_game(game_id, options).num_players
    if game_id == "med-sirocco":
        return "2p" if players == 2 else "3-6p"
    if game_id == "naval-war":
        if options.get("fleets", "none") != "none":
            return "fleets"
        return "2p" if players == 2 else "3-9p"
    return ""


def _score(text: str) -> float | None:
    """A seat's score as a number: its fleet's points in Naval War's fleet play, else the leading number."""
    found = re.search(r"fleet [A-D]: (-?\d+)", text) or re.match(r"\s*(-?\d+(?:\.\d+)?)", text)
    return float(found.group(1)) if found else None


def places(game_id: str, result: dict[str, Any], players: int) -> list[int]:
    """Each seat's place (1 is best; equal places tie): the winners first (all seats tie when nobody won),
    then the others by score where the game ranks them (`RANKED_BY_SCORE`) and every score reads as a
    number, else all second."""
    winners = set(result.get("winners") or [])
    if not winners:
        return [1] * players
    others = [seat for seat in range(players) if seat not in winners]
    scores = [_score(str(text)) for text in result.get("scores") or []]
    ranked = game_id in RANKED_BY_SCORE and len(scores) == players and all(scores[s] is not None for s in others)
    out = [1] * players
    for seat in others:
        above = {scores[o] for o in others if ranked and scores[o] > scores[seat]}  # type: ignore[operator]  # ranked is true only when every score of `others` is a number (checked above)
        out[seat] = 2 + len(above)
    return out


def bot_rating(game_id: str, level: str, players: int, variant: str | None = None) -> int:
    """A bot level's published rating in a game, its player count and (Race to Messina) its variant
    (`warcards.bots.ratings`, docs/bots.md)."""
    return published_rating(game_id, level, players, variant)


def rate(session: Session, table: TableRow, result: dict[str, Any]) -> dict[str, Any]:
    """The ratings part of a finishing table's result, its rating rows and changes written in `session`
    (the transaction that records the result): `{"rated": False}` for an unrated table; for a rated one,
    `rated`, `unrated` (why it did not count, or None) and `ratings` (each account seat's change)."""
    if not table.rated:
        return {"rated": False}
    seats = list(session.scalars(select(SeatRow).where(SeatRow.table_id == table.id).order_by(SeatRow.seat)))
    accounts = [seat.account_id for seat in seats if seat.account_id is not None]
    why = None
    if any(seat.kind == "person" and seat.account_id is None for seat in seats):
        why = UNRATED_GUEST
    elif len(set(accounts)) != len(accounts):
        why = UNRATED_TWO_SEATS
    elif session.scalar(
        select(EventRow.event_no).where(EventRow.table_id == table.id, EventRow.by_stand_in.is_(True)).limit(1)
    ) is not None:
        why = UNRATED_STAND_IN
    if why is not None:
        return {"rated": True, "unrated": why, "ratings": []}
    group = group_of(table.game, table.options)
    rows: dict[int, RatingRow] = {}
    teams: list[list[PlackettLuceRating]] = []
    openskill = model()
    for seat in seats:
        if seat.account_id is None:
            assert seat.level is not None
            mu = mu_of_display(bot_rating(table.game, seat.level, len(seats), table.options.get("variant")))
            teams.append([openskill.rating(mu=mu, sigma=BOT_SIGMA)])
            continue
        row = session.get(RatingRow, (seat.account_id, table.game, group))
        if row is None:
            row = RatingRow(
                account_id=seat.account_id, game=table.game, group=group, mu=openskill.mu, sigma=openskill.sigma,
                games=0, wins=0, updated_at=now(),
            )
            session.add(row)
        rows[seat.seat] = row
        teams.append([openskill.rating(mu=row.mu, sigma=row.sigma)])
    after = openskill.rate(teams, ranks=[float(place) for place in places(table.game, result, len(seats))])
    winners = set(result.get("winners") or [])
    changes = []
    at = now()
    for number, row in rows.items():
        new = after[number][0]
        session.add(
            RatingChangeRow(
                table_id=table.id, seat=number, account_id=row.account_id, game=table.game, group=group,
                mu_before=row.mu, sigma_before=row.sigma, mu_after=new.mu, sigma_after=new.sigma, at=at,
            )
        )
        before = display_rating(row.mu, row.sigma)
        now_rating = display_rating(new.mu, new.sigma)
        account = session.get(AccountRow, row.account_id)
        changes.append(RatingChange(
            seat=number, player=account.name if account is not None else "", group=group, before=before,
            after=now_rating, change=now_rating - before, provisional=is_provisional(new.sigma),
        ).model_dump())
        row.mu, row.sigma, row.updated_at = new.mu, new.sigma, at
        row.games += 1
        row.wins += number in winners
    session.flush()  # a second application fails here, on the rating changes' key, and writes nothing
    return {"rated": True, "unrated": None, "ratings": changes}


# ----- who is signed in ----------------------------------------------------------------------------------
# ----- profiles and leaderboards ---------------------------------------------------------------------------
def name_key(name: str) -> str:
    """A user name folded for lookup (compatibility forms, then case), as `accounts.name_key` holds it."""
    return unicodedata.normalize("NFKC", name).casefold()


class Standing(BaseModel):
    """An account's rating in a game and group as players read it (`warcards.skill`): `rating` the display
    number, `provisional` while it is still unsure, `conservative` (mu − 3σ on the same scale) the
    leaderboard's order."""

    player: str
    game: str
    group: str
    rating: int
    conservative: int
    provisional: bool
    games: int
    wins: int


class RankedStanding(Standing):
    rank: int


class PlayedGame(BaseModel):
    """A finished game an account played: `table` and `replay` are null for a private table (its link is
    not given away)."""

    table: str | None
    replay: str | None
    game: str
    group: str
    seat: int
    outcome: Literal["won", "lost", "draw"]
    rated: bool
    change: int | None
    """The rating change (display points) a rated game made; null for an unrated one."""
    at: float
    """When the table was made (seconds since the epoch)."""


class Profile(BaseModel):
    """An account's public profile: nothing private (no account id, email or setting)."""

    name: str
    ratings: list[Standing]
    games: int
    wins: int
    win_rate: float | None
    recent: list[PlayedGame]


def _standing(name: str, row: RatingRow) -> Standing:
    return Standing(
        player=name, game=row.game, group=row.group, rating=display_rating(row.mu, row.sigma),
        conservative=round(conservative(row.mu, row.sigma)), provisional=is_provisional(row.sigma),
        games=row.games, wins=row.wins,
    )


def _outcome(seat: int, result: dict[str, Any] | None) -> Literal["won", "lost", "draw"]:
    winners = (result or {}).get("winners") or []
    if not winners:
        return "draw"
    return "won" if seat in winners else "lost"


def profile(session: Session, name: str, recent: int) -> Profile | None:
    """An account's public profile by its name (None: no such account, or a deleted one): its ratings, its
    finished games (all of them, rated or not) and win count, and its `recent` latest finished games."""
    account = session.scalars(
        select(AccountRow).where(AccountRow.name_key == name_key(name), AccountRow.deleted_at.is_(None))
    ).first()
    if account is None:
        return None
    ratings = session.scalars(
        select(RatingRow).where(RatingRow.account_id == account.id).order_by(RatingRow.game, RatingRow.group)
    ).all()
    played = session.execute(
        select(SeatRow.seat, TableRow)
        .join(TableRow, TableRow.id == SeatRow.table_id)
        .where(SeatRow.account_id == account.id, TableRow.status == "finished")
        .order_by(TableRow.created_at.desc())
    ).all()
    changes = {
        change.table_id: change
        for change in session.scalars(select(RatingChangeRow).where(RatingChangeRow.account_id == account.id))
    }
    games: list[PlayedGame] = []
    for seat, table in played[:recent]:
        change = changes.get(table.id)
        shown = table.id if table.public else None
        games.append(PlayedGame(
            table=shown, replay=None if shown is None else f"/#/replay/{shown}/{seat}", game=table.game, group=group_of(table.game, table.options),
            seat=seat, outcome=_outcome(seat, table.result), rated=change is not None,
            change=None if change is None else (
                display_rating(change.mu_after, change.sigma_after) - display_rating(change.mu_before, change.sigma_before)
            ),
            at=_seconds(table.created_at),
        ))
    wins = sum(_outcome(seat, table.result) == "won" for seat, table in played)
    return Profile(
        name=account.name, ratings=[_standing(account.name, row) for row in ratings], games=len(played), wins=wins,
        win_rate=round(wins / len(played), 3) if played else None, recent=games,
    )


def leaderboard(session: Session, game: str, group: str, limit: int, offset: int) -> tuple[list[Standing], int]:
    """A game group's standings, best first by the conservative rating (mu − 3σ), `limit` from `offset`;
    and how many there are in all. Deleted accounts are left out."""
    where = (RatingRow.game == game, RatingRow.group == group, AccountRow.deleted_at.is_(None))
    joined = select(RatingRow, AccountRow.name).join(AccountRow, AccountRow.id == RatingRow.account_id)
    rows = session.execute(
        joined.where(*where)
        .order_by((RatingRow.mu - 3 * RatingRow.sigma).desc(), AccountRow.name_key)
        .offset(offset).limit(limit)
    ).all()
    total = session.scalar(
        select(func.count()).select_from(RatingRow).join(AccountRow, AccountRow.id == RatingRow.account_id)
        .where(*where)
    )
    return [_standing(name, row) for row, name in rows], int(total or 0)


def groups_of(game: str) -> Sequence[str]:
    return GROUPS.get(game, ("",))
