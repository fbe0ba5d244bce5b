"""A finished table's replay (issue 25, the replay viewer; docs/server.md "Replays"): the game re-applied
from its stored record (game, options, seed, the committed actions) exactly as `warcards replay --show`
re-applies it (`warcards.match.shown_steps`).

- As a seat (`?seat=N` or its name): one step per event of that seat's stream during play — each action it
  saw something of (a log line, or a change in its view; the server's per-recipient event streams leave
  out the rest, `Seen.nothing`) — with the log lines it read (`apply_logged`) and its view after it (`observe(seat)`): what
  the seat saw, nothing more.
- As all (`?seat=all`), one step per action: since the game is over, the replay is the god view `replay --show` prints without
  `--seat` — every action in full ("who: label", hidden cards named) with the public summaries — and the
  view after each step is every seat's `observe(seat)`, so the whole table, every hand included, is shown.

Step 0 is the start (no action, the views before the first deal). A game that ended by a resignation or a
forfeit on time gets a last step with the stored result's reason. Only a finished table has a replay: during
play a seat's own record is `GET /tables/{id}/record` with its token.

The steps (`GET /tables/{id}/replay`) carry the log lines; the views after a step are read one step at a
time (`GET /tables/{id}/replay/{step}`): every step's views at once would be tens of megabytes for a long
game (a 9-seat Naval War of 4,042 actions: 24 MB as one seat, 212 MB as all, 37 s to build; its steps
alone are read in 0.2 s as all, 1 s as a seat — measured when a seat's steps compared its views), while one
step's views cost one such pass.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel

from warcards.engine.api import LogLine, State
from warcards.match import ShownStep, shown_steps
from warcards.server import protocol as p
from warcards.server.db import EventInfo, TableInfo
from warcards.server.games import shared_game
from warcards.server.names import seat_players


class ReplayStep(BaseModel):
    """One step: its number (0 the start), who moved (a seat, -1 for chance, None at the start) and the log
    lines shown for it."""

    number: int
    actor: int | None
    lines: list[p.Line]


class Replay(BaseModel):
    """A finished game step by step, as `seat` saw it (None: as all), with who sat in each seat (`players`:
    the display names); the views after each step are read one step at a time (`ReplayViews`)."""

    table: str
    game: str
    options: dict[str, Any]
    seat: int | None
    seat_names: list[str]
    players: list[p.SeatPlayer]
    steps: list[ReplayStep]
    result: p.Result | None


class SeatView(BaseModel):
    """One seat's view (`observe(seat)`)."""

    seat: int
    view: dict[str, Any]


class ReplayViews(BaseModel):
    """The views after one step: the replay's seat's, or every seat's (as all)."""

    table: str
    seat: int | None
    step: int
    views: list[SeatView]


def parse_replay_seat(info: TableInfo, given: str) -> int | None:
    """`all` (None), or a seat of the table's game by number or name; `ValueError` saying what is allowed."""
    if given.strip().lower() == "all":
        return None
    try:
        return shared_game(info.game, info.options).parse_seat(given)
    except ValueError as error:
        raise ValueError(f"seat: {error}, or all (every seat's moves in full)") from None


def _actions(events: list[EventInfo]) -> list[int]:
    """The record's actions: the committed actions and chance outcomes, in order."""
    return [event.action for event in events if event.kind in ("action", "chance") and event.action is not None]


def _ended_by(events: list[EventInfo]) -> EventInfo | None:
    """The resignation or forfeit on time that ended the game, if one did."""
    return next((event for event in events if event.kind in ("resign", "timeout")), None)


def _shown(info: TableInfo, events: list[EventInfo], seat: int | None) -> Iterator[tuple[int, ShownStep, State]]:
    """The steps the replay shows, each with how many actions are applied after it and the state then. As a
    seat: only the actions that seat saw something of — a log line, or a change in what its view shows (its
    observation, the seat to move, its legal moves): `Seen.nothing` of the engine's driver step, exactly as
    its event stream during play held them (the server's per-recipient streams); as all: every action."""
    game = shared_game(info.game, info.options)
    for done, (step, state) in enumerate(shown_steps(game, info.seed, _actions(events), seat), start=1):
        if not step.unseen:
            yield done, step, state


def build_replay(info: TableInfo, events: list[EventInfo], seat: int | None) -> Replay:
    """The steps of a finished table from its stored record (`seat` None: as all)."""
    game = shared_game(info.game, info.options)
    steps = [ReplayStep(number=0, actor=None, lines=[])]
    for _, step, _ in _shown(info, events, seat):
        steps.append(ReplayStep(number=len(steps), actor=step.actor, lines=[_line(line) for line in step.lines]))
    result = p.Result(**info.result) if info.result else None
    ended = _ended_by(events)
    if ended is not None and result is not None:
        steps.append(ReplayStep(
            number=len(steps), actor=ended.seat, lines=[p.Line(text=result.reason, kind="summary", actor=ended.seat)]
        ))
    return Replay(
        table=info.id, game=game.game_id, options=game.options, seat=seat, seat_names=list(game.seat_names()),
        players=seat_players(info.seats, game.seat_names()), steps=steps, result=result,
    )


def build_views(info: TableInfo, events: list[EventInfo], seat: int | None, step: int) -> ReplayViews:
    """The views after step `step` (0: the start) of a finished table; `ValueError` for a step it lacks."""
    game = shared_game(info.game, info.options)
    shown = [seat] if seat is not None else list(range(game.num_players))

    def views(state: State) -> ReplayViews:
        return ReplayViews(
            table=info.id, seat=seat, step=step, views=[SeatView(seat=who, view=state.observe(who)) for who in shown]
        )

    state = game.new_initial_state()
    count = 0
    if step == 0:
        return views(state)
    for count, (_, _, state) in enumerate(_shown(info, events, seat), start=1):
        if count == step:
            return views(state)  # now: the walk goes on with this same state
    last = count + (1 if _ended_by(events) is not None else 0)
    if 0 < step <= last:
        return views(state)  # the resignation's step: the position it ended
    raise ValueError(f"step {step} is not a step of this replay: its steps are 0 (the start) to {last}")


def _line(line: LogLine) -> p.Line:
    return p.Line(text=line.text, kind=line.kind, actor=line.actor)
