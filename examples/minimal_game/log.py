"""What a player of the Minimal Game reads (docs/contributing/log.md): the game log of each step as one seat
saw it, move labels with card names, and the result with its reason.

A seat reads a draw's card only if it drew it (rule 2) and a face-down discard's card only if it discarded
it (rule 3); everything else is face up. A trick's end adds a summary line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minimal_game.codes import Phase
from warcards.engine.api import CHANCE, GameResult, LogLine, SeenAction

if TYPE_CHECKING:
    from minimal_game.state import MinimalState


def _who(state: MinimalState, actor: int, seat: int | None) -> str:
    return "you" if actor == seat else state.game.seat_names()[actor]


def log_lines(
    before: MinimalState, action: int, after: MinimalState, seat: int | None, seen: SeenAction
) -> list[LogLine]:
    """The lines `seat` (None: a spectator) reads for `action` taken at `before`, leading to `after`. `seen` is
    what the seat sees of the action (`hidden_action_text`, decided once by the engine): the words follow it."""
    table = before.table
    hidden = seen.action is None
    if before.to_act == CHANCE:
        if not hidden:
            return [LogLine(f"you draw {table.names[action]}", "chance", CHANCE)]
        return [LogLine(f"{_who(before, before.drawer, seat)} draws a card", "chance", CHANCE)]
    actor = before.to_act
    kind, card = before.game.layout.decode(action)
    who = _who(before, actor, seat)
    verb_s = "" if actor == seat else "s"
    if kind == "play":
        lines = [LogLine(f"{who} play{verb_s} {table.names[card]} ({table.strengths[card]})", "move", actor)]
    elif not hidden:
        lines = [LogLine(f"you discard {table.names[card]} face down", "move", actor)]
    else:
        lines = [LogLine(f"{who} discards a card face down", "move", actor)]
    if sum(after.tricks_won) > sum(before.tricks_won):
        winner = after.leader
        lines.append(LogLine(f"{_who(before, winner, seat)} win{'' if winner == seat else 's'} the trick "
                             f"(rule 4); tricks: {', '.join(map(str, after.tricks_won))}", "summary", None))
    if after.phase == Phase.OVER:
        lines.append(LogLine(f"game over: {result(after).reason}", "summary", None))
    return lines


def action_label(state: MinimalState, action: int) -> str:
    """The notation, then the card's name and strength: `play A4 (Spitfire, 4)`."""
    text = state.action_to_string(action)
    table = state.table
    card = action if state.to_act == CHANCE else state.game.layout.decode(action)[1]
    return f"{text} ({table.names[card]}, {table.strengths[card]})"


def result(state: MinimalState) -> GameResult:
    """Rule 6: the most tricks wins; equal most share the win."""
    best = max(state.tricks_won)
    winners = tuple(seat for seat, tricks in enumerate(state.tricks_won) if tricks == best)
    names = state.game.seat_names()
    return GameResult(
        winners=winners,
        scores=tuple(f"{tricks} tricks" for tricks in state.tricks_won),
        reason=f"{' and '.join(names[seat] for seat in winners)}: most tricks, {best} (rule 6)",
    )
