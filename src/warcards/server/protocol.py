"""Protocol v1 of `warcards serve` (docs/protocol.md): one pydantic model per message.

Every message is a JSON object with `protocol: 1` and a `type`. A client sends `hello` first (its seat
token, or none for a spectator, and the last event number it saw), then `act`, `resign`, `sync`, `ping`,
`reclaim`, `sample`, `chat`, `mute` and `rematch`. The server answers with `welcome`, `event`, `catchup`, `ack`,
`refused`, `pong`, `sample`, `end`, `chat`, `chat_log`, `rematch` and `error`. Client messages are parsed strictly: an unknown field, a wrong type or an unknown
`type` is refused with an `error` naming what is wrong.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, TypeAdapter

PROTOCOL = 1

MAX_FRAME = 16_384
"""The largest client frame the server reads, in characters (a longer one is refused and closed)."""

MAX_CLIENT_ID = 64
"""The longest client message id."""

MAX_CHAT = 300
"""The longest chat message, in characters, once trimmed and cleaned (`social.clean_chat`)."""

MAX_CHAT_FRAME = 4 * MAX_CHAT
"""The longest `text` a `chat` frame may carry before cleaning (a longer one is a `bad_message`)."""

ClientId = Annotated[StrictStr, Field(min_length=1, max_length=MAX_CLIENT_ID)]
EventNo = Annotated[StrictInt, Field(ge=0, le=2**31 - 1)]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid")

    protocol: Literal[1] = 1


# ----- client -> server -------------------------------------------------------------------------------------
class Hello(_Message):
    """The first message of a connection: a seat token (None: a spectator), the last event number seen
    (None: a fresh snapshot), and whether it reads chat."""

    type: Literal["hello"]
    token: Annotated[StrictStr, Field(max_length=200)] | None = None
    last_seen: EventNo | None = None
    chat: StrictBool = False
    """True: this client reads the table's chat and rematch frames (`chat_log` after the catch-up, then
    `chat` and `rematch`); a client that does not ask gets none until it sends a `chat`, `mute` or `rematch`."""


class Act(_Message):
    """An action: notation text or the engine's action number, answering event `answers`."""

    type: Literal["act"]
    id: ClientId
    answers: EventNo
    action: Annotated[StrictStr, Field(max_length=200)] | Annotated[StrictInt, Field(ge=0, le=2**31 - 1)]


class Resign(_Message):
    type: Literal["resign"]
    id: ClientId


class Sync(_Message):
    """Ask for the events after `last_seen` (or a fresh snapshot when None)."""

    type: Literal["sync"]
    last_seen: EventNo | None = None


class Ping(_Message):
    type: Literal["ping"]
    id: ClientId | None = None


class Reclaim(_Message):
    """Take back a seat that a stand-in bot holds since a timeout (an act of the seat's player does too)."""

    type: Literal["reclaim"]
    id: ClientId


class SampleRequest(_Message):
    """Ask for a state sampled from this seat's view alone (for a search bot; docs/protocol.md)."""

    type: Literal["sample"]
    id: ClientId


class ChatSend(_Message):
    """A chat message (docs/protocol.md, "Chat"): plain text, trimmed, at most `MAX_CHAT` characters once
    control and bidirectional-override characters are taken out. `channel`: `players` (a seat's default,
    the only one a seat writes to) or `spectators` (a spectator's, the only one it writes to)."""

    type: Literal["chat"]
    id: ClientId
    text: Annotated[StrictStr, Field(max_length=MAX_CHAT_FRAME)]
    channel: Literal["players", "spectators"] | None = None


class Mute(_Message):
    """A seat stops (`muted` true) or starts again (false) receiving another seat's chat, at this table."""

    type: Literal["mute"]
    id: ClientId
    seat: Annotated[StrictInt, Field(ge=0, le=63)]
    muted: StrictBool = True


class RematchAnswer(_Message):
    """After the end: propose a rematch, or accept the one proposed (`accept` true); decline it (false)."""

    type: Literal["rematch"]
    id: ClientId
    accept: StrictBool = True


AnyClientMessage = Hello | Act | Resign | Sync | Ping | Reclaim | SampleRequest | ChatSend | Mute | RematchAnswer
ClientMessage = Annotated[AnyClientMessage, Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[AnyClientMessage] = TypeAdapter(ClientMessage)


# ----- server -> client -------------------------------------------------------------------------------------
class Line(BaseModel):
    """One game-log line as the recipient reads it (`warcards.engine.LogLine`)."""

    text: str
    kind: str
    actor: int | None


class Choice(BaseModel):
    """One legal action: its number, its notation (what `act` accepts as text), its label (the notation,
    then the names of what it mentions) and the ids of the cards it names that the seat can see (its own
    hand, the cards face up: `warcards.server.choices`), [] when none."""

    action: int
    notation: str
    label: str
    cards: list[str] = []


class EventBody(BaseModel):
    """One accepted event as one recipient sees it: who acted (a seat, -1 for chance, None for a
    resignation's summary), the action number only when the recipient may know it, the text it reads and
    its game-log lines. `timeout`: the seat to move ran out of time and forfeits."""

    event_no: int
    kind: Literal["action", "chance", "resign", "timeout"]
    actor: int | None
    action: int | None
    text: str
    lines: list[Line]


class RatingChange(BaseModel):
    """What a rated game did to one account seat's rating (display scale: `warcards.skill`)."""

    seat: int
    player: str
    group: str
    before: int
    after: int
    change: int
    provisional: bool


class Result(BaseModel):
    """The outcome. `rated`: the table was created rated; `unrated`: why its game did not count after all
    (a stand-in bot played a move...), or null; `ratings`: each account seat's change (empty otherwise)."""

    winners: list[int]
    scores: list[str]
    reason: str
    rated: bool = False
    unrated: str | None = None
    ratings: list[RatingChange] = Field(default_factory=list)


class SeatPlayer(BaseModel):
    """Who sits in a seat: the game's side (`seat_name`), the display name (a person's, "Bot · hard" for a
    bot, null while the seat is open), a person or a bot, and a bot's level. Public: every seat may know it."""

    seat: int
    seat_name: str
    name: str | None
    kind: Literal["person", "bot"]
    level: str | None


class Player(SeatPlayer):
    """A seat at a live table: `connected` (a connection of the seat's own player or bot is open on this
    server process) and `stand_in`, the level of the bot holding a person's seat since a timeout (else null)."""

    connected: bool
    stand_in: str | None


class Welcome(_Message):
    """The first server message: the table, your seat (null: a spectator), the seats' names, the players
    and how many spectators watch."""

    type: Literal["welcome"] = "welcome"
    table: str
    game: str
    options: dict[str, Any]
    seat: int | None
    seat_names: list[str]
    status: Literal["open", "playing", "finished"]
    event_no: int
    players: list[Player]
    watching: int


class Players(_Message):
    """The players changed (a seat joined, left or was taken by a stand-in; a connection came or went): every
    seat as `welcome` lists it, sent to every connection of the table."""

    type: Literal["players"] = "players"
    players: list[Player]
    watching: int


class Clock(BaseModel):
    """The table's timer when the frame was made (None on a table without one). `move`: `seconds_left`
    holds the running seat's time left on this move, null for the other seats; `total` (a chess clock):
    every seat's bank. `running`: the seat whose time runs down now (null while chance acts, before the
    start and after the end). `stand_ins`: the seats a stand-in bot holds now (after a timeout, until the
    player reclaims)."""

    kind: Literal["move", "total"]
    seconds_left: list[float | None]
    running: int | None
    on_timeout: Literal["bot", "forfeit"]
    stand_ins: list[int]


class View(_Message):
    """The recipient's view now: `observe(seat)` for a seat, the public view for a spectator; `legal` only
    for the seat to move; the clock."""

    type: Literal["view"] = "view"
    event_no: int
    view: dict[str, Any] | None
    to_move: int | None
    legal: list[Choice] | None = None
    clock: Clock | None = None


class Event(_Message):
    type: Literal["event"] = "event"
    event: EventBody
    view: dict[str, Any] | None
    to_move: int | None
    legal: list[Choice] | None = None
    clock: Clock | None = None


class Catchup(_Message):
    """The events a reconnecting client missed (after its `last_seen`), then its view now."""

    type: Literal["catchup"] = "catchup"
    events: list[EventBody]
    view: View


class Ack(_Message):
    type: Literal["ack"] = "ack"
    id: str
    event_no: int


class Refused(_Message):
    """A client message refused: only its sender reads this. `code` is one of `REFUSAL_CODES`."""

    type: Literal["refused"] = "refused"
    id: str | None
    code: str
    message: str


class Pong(_Message):
    type: Literal["pong"] = "pong"
    id: str | None


class Sample(_Message):
    """A state sampled from the seat's view only (`State.determinize` with a fixed RNG), as the engine's
    position snapshot (`State.snapshot()`: plain JSON that `Game.state_from_snapshot` rebuilds and checks)."""

    type: Literal["sample"] = "sample"
    id: str
    event_no: int
    snapshot: dict[str, Any]


class End(_Message):
    """The game is over: the result, the players (who sat where, by name), and (now that it may be known) the
    seed and the whole record (with the seats' display names in `names`)."""

    type: Literal["end"] = "end"
    event_no: int
    result: Result
    record: dict[str, Any]
    players: list[SeatPlayer]


class Error(_Message):
    """A frame that is not a message of this protocol (or breaks a limit); the connection may be closed."""

    type: Literal["error"] = "error"
    code: str
    message: str


class Chat(_Message):
    """One chat message as every reader gets it: its number at the table (from 1), its channel, the seat
    that wrote it (None: a spectator), the writer's name, the text and when (seconds since the epoch). Only
    what a person typed: nothing of the game."""

    model_config = ConfigDict(serialize_by_alias=True)

    type: Literal["chat"] = "chat"
    number: int
    channel: Literal["players", "spectators"]
    from_: int | None = Field(serialization_alias="from")
    name: str
    text: str
    at: float


class ChatLog(_Message):
    """Sent to a person or a spectator after its catch-up: whether the table has chat, the name its own
    messages carry (a seat's name, or "Spectator N"), the newest messages it may read (at most `CHAT_LOG`,
    oldest first, its mutes applied) and the seats it mutes."""

    type: Literal["chat_log"] = "chat_log"
    enabled: bool
    name: str
    messages: list[Chat]
    muted: list[int]


CHAT_LOG = 200
"""The most messages a `chat_log` carries."""


class Rematch(_Message):
    """Where a rematch stands (docs/protocol.md, "Rematch"): `proposed` (who accepted, who is awaited),
    `declined` (by whom: cancelled), `ready` (the new table; `token` is the reader's own seat's, never
    another's; null for a spectator) or `failed` (why, in `message`)."""

    type: Literal["rematch"] = "rematch"
    status: Literal["proposed", "declined", "ready", "failed"]
    accepted: list[int]
    waiting: list[int]
    by: int | None = None
    table: str | None = None
    seat: int | None = None
    token: str | None = None
    message: str


REFUSAL_CODES = (
    "not_started",
    "game_over",
    "spectator",
    "not_your_turn",
    "stale",
    "invalid_action",
    "illegal_action",
    "replaced",
    "chat_off",
    "chat_refused",
    "chat_limited",
    "rematch_refused",
)
"""Why an `act`, `resign`, `sample`, `chat`, `mute` or `rematch` is refused (docs/protocol.md lists what each means)."""
