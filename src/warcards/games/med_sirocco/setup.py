"""Scenario setups: a Med Sirocco state built from zones and position fields (`state_from_setup`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from warcards.engine.errors import SetupError
from warcards.engine.setupfields import int_field, int_list_field, setup_parts, str_field
from warcards.engine.text import quote
from warcards.games.med_sirocco import rules
from warcards.games.med_sirocco.codes import Phase, Stage
from warcards.games.med_sirocco.notation import N_CARDS, N_PILE
from warcards.games.med_sirocco.state import MedSiroccoState

if TYPE_CHECKING:
    from warcards.games.med_sirocco.game import MedSiroccoGame


def state_from_setup(game: MedSiroccoGame, setup: Mapping[str, Any]) -> MedSiroccoState:
    """A state at the start of an Operation (or, with `operation`, right after it is turned over) built from
    zones (hand:<p>, pile, discard, operations, operations:out, won:<p>, captured:<p>, sunk) and position
    fields (first_player, dealer, operations_done, operation, freighters_full, freighters_half)."""
    state = MedSiroccoState(game)
    index = game.table.index
    n = state.num_players
    zones, position = setup_parts(setup, "med-sirocco: ")
    allowed_fields = {"first_player", "dealer", "operations_done", "operation", "freighters_full", "freighters_half"}
    unknown = set(position) - allowed_fields
    if unknown:
        raise SetupError(f"med-sirocco: unknown position field {quote(min(unknown))}; fields: {sorted(allowed_fields)}")
    placed: dict[str, str] = {}
    lists: dict[str, list[int]] = {}
    rest_zone = None
    names = [f"hand:{p}" for p in range(n)] + [f"won:{p}" for p in range(n)] + [f"captured:{p}" for p in range(n)]
    names += ["pile", "discard", "operations", "operations:out", "sunk"]
    for zone, cards in zones.items():
        if zone not in names:
            raise SetupError(f"med-sirocco: unknown zone {quote(zone)}; zones: {', '.join(names)}")
        if cards == "rest":
            rest_zone = zone
            continue
        out = []
        for cid in cards:
            if cid not in index:
                raise SetupError(f"med-sirocco: unknown card {quote(cid)} in zone {zone}")
            if cid in placed:
                raise SetupError(f"med-sirocco: card {cid} is in both {placed[cid]} and {zone}")
            placed[cid] = zone
            out.append(index[cid])
        lists[zone] = out
    op_id = str_field(position, "operation", None, "med-sirocco: ")
    if op_id is not None:
        if op_id not in index or index[op_id] < N_PILE:
            raise SetupError(f"med-sirocco: position operation {quote(op_id)} is not an Operation card (O01–O44)")
        if op_id in placed:
            raise SetupError(f"med-sirocco: card {op_id} is both the Operation and in {placed[op_id]}")
        placed[op_id] = "operation"
    leftover_pile = [c for c in range(N_PILE) if game.table.ids[c] not in placed]
    leftover_ops = [c for c in range(N_PILE, N_CARDS) if game.table.ids[c] not in placed]
    if rest_zone is not None:
        lists.setdefault(rest_zone, [])
        if rest_zone.startswith("operations"):
            lists[rest_zone] += leftover_ops
            lists.setdefault("pile", [])
            lists["pile"] += leftover_pile
        else:
            lists[rest_zone] += leftover_pile
            lists.setdefault("operations", [])
            lists["operations"] += leftover_ops
    else:
        lists.setdefault("pile", [])
        lists["pile"] += leftover_pile
        lists.setdefault("operations", [])
        lists["operations"] += leftover_ops
    rest_ops = rest_zone is not None and rest_zone.startswith("operations")
    for zone, leftover in (("pile", leftover_pile if rest_zone is None or rest_ops else []),
                           ("operations", leftover_ops if not rest_ops else [])):
        if leftover and zone in zones:
            raise SetupError(f"med-sirocco: {game.table.ids[leftover[0]]} is placed nowhere and zone {zone!r} is listed "
                             "exactly; list the card, or mark one zone \"rest\"")
    for zone, cards in lists.items():
        for c in cards:
            is_op = c >= N_PILE
            if zone in ("operations", "operations:out") or zone.startswith("won:"):
                if not is_op:
                    raise SetupError(f"med-sirocco: {game.table.ids[c]} is not an Operation card; zone {zone} holds O cards")
            elif is_op:
                raise SetupError(f"med-sirocco: {game.table.ids[c]} is an Operation card; zone {zone} cannot hold it")
    state.hands = [sorted(lists.get(f"hand:{p}", [])) for p in range(n)]
    state.won = [lists.get(f"won:{p}", []) for p in range(n)]
    state.captured = [lists.get(f"captured:{p}", []) for p in range(n)]
    state.pile = sorted(lists.get("pile", []))
    state.discard = lists.get("discard", [])
    state.operations_pile = sorted(lists.get("operations", []))
    state.operations_out = lists.get("operations:out", [])
    state.sunk = lists.get("sunk", [])
    state.first_player = int_field(position, "first_player", 0, 0, n - 1, "med-sirocco: ")
    state.dealer = int_field(position, "dealer", state.first_player, 0, n - 1, "med-sirocco: ")
    state.operations_done = int_field(position, "operations_done", 0, 0, prefix="med-sirocco: ")
    state.freighters_full = int_list_field(position, "freighters_full", n, 0, prefix="med-sirocco: ") or [0] * n
    state.freighters_half = int_list_field(position, "freighters_half", n, 0, prefix="med-sirocco: ") or [0] * n
    for p in range(n):
        for c in state.won[p]:
            load = game.table.op_load[c]
            if "freighters_full" not in position and load == 2:
                state.freighters_full[p] += 1
            if "freighters_half" not in position and load == 1:
                state.freighters_half[p] += 1
    state.stage = Stage.START_OPERATION
    state.phase = Phase.CHANCE
    state.chance_kind = -1
    if not any(z.startswith("hand:") for z in zones):
        for _ in range(6):
            for i in range(n):
                state.draw_queue.append((state.dealer + 1 + i) % n)
    if op_id is not None:
        rules.start_operation(state, index[op_id])
    rules.advance(state)
    return state


__all__ = ["state_from_setup"]
