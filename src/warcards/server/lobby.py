"""The lobby's request and answer models (REST, in the OpenAPI schema) and the checks of a new table.

A table's game and options are checked by the engine (`load_game` and the game's option specs), with the
same messages the command line prints; each seat is open for a person or a bot of a named level.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, model_validator

from warcards.bots import make_agent
from warcards.engine.api import Game
from warcards.engine.registry import check_game
from warcards.server.games import shared_game
from warcards.server.names import MAX_NAME_INPUT

BotLevel = Literal["random", "beginner", "heuristic", "easy", "medium", "hard"]
BOT_LEVELS: tuple[str, ...] = get_args(BotLevel)
"""The bot levels a seat may be given, as the lobby offers them (each with its published rating; the search
levels play from a sample of their seat's view)."""


class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["person", "bot"]
    level: BotLevel | None = None


class TimerSpec(BaseModel):
    """`none`; `move`: each move within `seconds`; or `total` (a chess clock): `seconds` is each seat's bank
    for the whole game, `increment` seconds (0 to 3600, default 0) added after each of the seat's moves.
    On a timeout (`on_timeout`), a bot of `level` holds the seat until its player acts again (`bot`, the
    default), or the seat forfeits (`forfeit`)."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["none", "move", "total"] = "none"
    seconds: Annotated[StrictInt, Field(ge=1, le=7 * 86400)] | None = None
    increment: Annotated[StrictInt, Field(ge=0, le=3600)] | None = None
    on_timeout: Literal["bot", "forfeit"] = "bot"
    level: BotLevel = "heuristic"

    @model_validator(mode="after")
    def _seconds_for_a_limit(self) -> TimerSpec:
        if (self.kind != "none") != (self.seconds is not None):
            raise ValueError(
                "a move or total timer needs seconds (1 to 604800: the time per move, or each seat's bank); "
                "no timer takes none"
            )
        if self.increment is not None and self.kind != "total":
            raise ValueError(
                f"increment is for a total timer (a chess clock) only; a {self.kind!r} timer takes none"
            )
        if self.kind == "total" and self.increment is None:
            self.increment = 0
        return self


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: StrictStr
    options: dict[str, Any] = Field(default_factory=dict)
    seats: Annotated[list[SeatSpec], Field(min_length=1, max_length=16)]
    public: StrictBool = True
    timer: TimerSpec = Field(default_factory=TimerSpec)
    rated: StrictBool = False
    """The result changes the accounts' ratings: every person seat must be taken by a signed-in account;
    bot seats play at their published ratings (docs/server.md, "Ratings")."""
    chat: StrictBool = Field(True, description="False: the table has no chat at all (docs/protocol.md, \"Chat\")")


class SeatOut(BaseModel):
    seat: int
    seat_name: str
    kind: str
    level: str | None
    player: str | None
    open: bool


class TableOut(BaseModel):
    id: str
    game: str
    options: dict[str, Any]
    public: bool
    rated: bool = False
    status: str
    seats: list[SeatOut]
    invite: str
    websocket: str
    result: dict[str, Any] | None = None
    chat: bool = True


class JoinSeat(BaseModel):
    """The name to sit under: checked by `warcards.server.names` (a refusal says what is wrong)."""

    model_config = ConfigDict(extra="forbid")

    name: Annotated[StrictStr, Field(max_length=MAX_NAME_INPUT)]


class Joined(BaseModel):
    table: str
    seat: int
    token: str
    websocket: str


class Health(BaseModel):
    status: Literal["ok"]
    tables: int


class Stats(BaseModel):
    """Figures of this process: tables held, accepted acts timed (all of them), and their latency from
    receipt to the last broadcast queued (milliseconds, over the newest 10,000 acts of this process)."""

    tables: int
    acts: int
    p50_ms: float | None
    p99_ms: float | None


class Version(BaseModel):
    warcards: str
    protocol: int


SERVER_FILE_OPTIONS = frozenset({"cards"})
"""Options whose value names a file on the machine that loads the game: a table's game is loaded on the
server, so a client may not choose one (it could make the server read any path as a deck)."""


def load_remote_game(game_id: str, options: dict[str, Any]) -> Game:
    """The game for options sent by a client: the engine's checks, and no option that names a server file."""
    check_game(game_id)
    named = sorted(SERVER_FILE_OPTIONS & set(options))
    if named:
        raise ValueError(
            f"option {named[0]!r} names a file on the server and is not accepted over the network; "
            "tables play the game's own cards"
        )
    return shared_game(game_id, options)


def check_table(request: CreateTable) -> Game:
    """The game of a new table, or a `ValueError` saying what is wrong (unknown game, bad option, seat
    count, a bot level the game has no bot for)."""
    game = load_remote_game(request.game, request.options)
    if len(request.seats) != game.num_players:
        raise ValueError(
            f"{game.game_id} with these options has {game.num_players} seats "
            f"({', '.join(game.seat_names())}); {len(request.seats)} seats were given"
        )
    for number, seat in enumerate(request.seats):
        if seat.kind == "bot":
            if seat.level is None:
                raise ValueError(f"seat {number} is a bot: give its level, one of {', '.join(BOT_LEVELS)}")
            make_agent(seat.level, game, number, 0)
        elif seat.level is not None:
            raise ValueError(f"seat {number} is for a person: a level is only for a bot seat")
    if request.rated and all(seat.kind == "bot" for seat in request.seats):
        raise ValueError("a rated table needs a person seat: only accounts' ratings change, bots' stay fixed")
    return game

