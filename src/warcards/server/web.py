"""The browser client of `warcards serve` (docs/server.md, "Playing in the browser"): the static page at
`/` and the lobby reads it needs that the table API lacks — each game's option specs (what `warcards
games` prints) with its one-line description, the seat names a set of options gives, and each game's "How to
play" page (its GUIDE.md and RULES.md, rendered by warcards.server.guide).
"""

from __future__ import annotations

import contextlib
import dataclasses
from importlib.resources import files
from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from warcards.bots.ratings import display, published_rating
from warcards.engine.registry import check_game, games, option_specs, param_specs
from warcards.server.games import shared_game
from warcards.server.guide import DESCRIPTIONS, GAME_TITLES, PLAYERS, game_guide, term_id, typical_length
from warcards.server.lobby import BOT_LEVELS, load_remote_game
from warcards.server.routes import refusals


class OptionOut(BaseModel):
    """One option of a game: its default, the values allowed (None: a free value of `kind`), its meaning."""

    name: str
    default: Any
    allowed: list[Any] | None
    kind: str | None
    doc: str


class GameOut(BaseModel):
    id: str
    title: str
    description: str
    players: str
    typical_length: str | None
    seat_names: list[str]
    options: list[OptionOut]


class TermOut(BaseModel):
    term: str
    anchor: str
    meaning: str


class GuideOut(BaseModel):
    """A game's "How to play" page: its GUIDE.md and RULES.md as HTML made on the server from escaped text
    (no raw HTML of the files passes), and the glossary of its keywords."""

    game: str
    title: str
    description: str
    guide_html: str
    rulings_html: str
    glossary: list[TermOut]


class GamesOut(BaseModel):
    games: list[GameOut]
    levels: list[str]


class SeatsOf(BaseModel):
    model_config = ConfigDict(extra="forbid")

    options: dict[str, Any] = Field(default_factory=dict)


class ParamOut(BaseModel):
    """A rule parameter a table may change (house rules: docs/tuning.md)."""

    name: str
    default: int
    low: int
    high: int
    meaning: str
    rule: str


class SeatsOut(BaseModel):
    game: str
    options: dict[str, Any]
    seat_names: list[str]
    parameters: list[ParamOut] = Field(default_factory=list)
    """The rule parameters of the game with these options (a table's `options.params` may change them)."""
    bot_ratings: dict[str, str] = Field(default_factory=dict)
    """Each bot level's published rating for the game with these options, as shown ("≈ 1,650": docs/bots.md)."""


router = APIRouter()


@router.get("/games")
async def list_games() -> GamesOut:
    """The games, each with its option specs and its default seats, and the bot levels a seat may have."""
    return GamesOut(
        games=[
            GameOut(
                id=game_id,
                title=GAME_TITLES.get(game_id, game_id),
                description=DESCRIPTIONS.get(game_id, ""),
                players=PLAYERS.get(game_id, ""),
                typical_length=typical_length(game_id),
                seat_names=shared_game(game_id, {}).seat_names(),
                options=[
                    OptionOut(
                        name=spec.name, default=spec.default,
                        allowed=list(spec.allowed) if spec.allowed is not None else None,
                        kind=spec.kind.__name__ if spec.kind is not None else None, doc=spec.doc,
                    )
                    for spec in option_specs(game_id)
                ],
            )
            for game_id in games()
        ],
        levels=list(BOT_LEVELS),
    )


@router.post("/games/{game_id}/seats", responses=refusals(400, 422))
async def seats_of(game_id: str, request: SeatsOf) -> SeatsOut:
    """The seats a game has with `options` (checked by the engine, with the command line's messages)."""
    game = load_remote_game(game_id, request.options)
    parameters = [ParamOut(**dataclasses.asdict(spec)) for spec in param_specs(game_id, game.options)]
    ratings = {}
    for level in BOT_LEVELS:
        with contextlib.suppress(ValueError):
            ratings[level] = display(
                published_rating(game_id, level, game.num_players, game.options.get("variant"))
            )
    return SeatsOut(game=game.game_id, options=game.options, seat_names=game.seat_names(), parameters=parameters,
                    bot_ratings=ratings)


@router.get("/games/{game_id}/guide", responses=refusals(422))
async def guide_of(game_id: str) -> GuideOut:
    """How to play the game: its guide and rulings, citations linked, keywords explained."""
    check_game(game_id)
    guide = game_guide(game_id)
    return GuideOut(
        game=game_id, title=GAME_TITLES.get(game_id, game_id), description=DESCRIPTIONS.get(game_id, ""),
        guide_html=guide.guide_html, rulings_html=guide.rulings_html,
        glossary=[TermOut(term=term, anchor=term_id(term), meaning=meaning) for term, meaning in guide.glossary],
    )


def mount_web(app: FastAPI) -> None:
    """Add the game reads and serve the static client at `/` (call after every other route: the mount at
    `/` takes what no route matched)."""
    app.include_router(router)
    static = files("warcards.server") / "static"
    app.mount("/", StaticFiles(directory=str(static), html=True), name="web")
