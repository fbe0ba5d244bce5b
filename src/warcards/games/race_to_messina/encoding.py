"""Race to Messina observation vector (RL): a fixed layout read only from one seat's view (`observe(seat)`).

Notation: N = 94 cards, numbered in card order (X01 = 0 … X47 = 46, A01 = 47 … A47 = 93; a card file of the
`cards` option has its own N and order, read from the game's table, and its vector sizes follow); n seats; G table
groups (the `table:*` zones); D = the most groups one seat owns; F decks; T = 2 in Race (a table's Ally and
Axis totals), else 1.

Relative order. Seat offset k = (other seat - observing seat) mod n, so k = 0 is the observing seat.
Relative group r: the groups sorted by their owner's offset, then in game order (own groups first):

| variant | seat | relative groups r = 0, 1, … |
|---|---|---|
| invasion | allies / axis | own table, opponent's table |
| race | british / americans | own table, opponent's table |
| sicily | british | table:british, table:americans, table:axis:americans, table:axis:british |
| sicily | americans | table:americans, table:axis:americans, table:axis:british, table:british |
| sicily | axis | table:axis:americans, table:axis:british, table:british, table:americans |

Card blocks: block b holds entries [b·N, (b+1)·N), entry b·N + c for card c. Blocks 0 … D+G+n+1 are
where the seat sees each card, exactly one of them set per card; the last two are flags.

| block | meaning |
|---|---|
| 0 | in the seat's own hand |
| 1 … D | in the seat's own hidden deployment (`deploying`) to relative group j = block - 1 |
| D+1 … D+G | on the table of relative group r = block - D - 1 |
| D+G+1 | in a discard pile |
| D+G+2 … D+G+n | known by Recon in the hand (or hidden deployment) of the seat at offset k = block - D - G - 1 |
| D+G+n+1 | unseen (a deck, another hand, another seat's hidden deployment) |
| D+G+n+2 | flag: activated this Action phase (a table card) |
| D+G+n+3 | flag: drawn by the seat's own Supply, awaiting keep/reveal (it is also in the hand) |

Scalars from S = (D+G+n+4)·N, in this order (every value in [0, 1], larger values clipped to 1):

| size | meaning |
|---|---|
| n | the observing seat, one-hot in seat order (the seats' roles differ) |
| 6 | phase one-hot: logistics, strategy, deployment, action, recovery, over |
| n + 2 | to act: seat offset k one-hot, then chance, then terminal |
| 1 | turn / turn limit (invasion 20, race 50, sicily 16) |
| n | PT per seat offset k / that seat's PT goal |
| n | hand size per seat offset k / that seat's hand size (another seat's hidden deployment counts) |
| F | cards in each deck (game order: allies, axis; Race: the one deck) / that deck's card count (47; Race 94) |
| F | cards in each discard pile, same order and scale |
| G·T | force totals per relative group / 100; Race: Ally total, Axis total per group |
| G | Action phase: the slot to act, one-hot over relative groups |
| G | Action phase: the slots that have passed, per relative group |
| G | activated Progress cards still in play per relative group / the Progress cards of the game (5) |
| 1 | Strategy: cards the acting seat has discarded / the discard limit |
| G | Supply pending (drawing or drawn): its relative group one-hot |
| n + 1 | winner: seat offset k one-hot, then draw |

Sizes: invasion and race 881 (9·94 + 35), sicily 1272 (13·94 + 50). The log (prose), `groups` (fixed by the
variant) and `returns` (follow the winner) are left out.

Concrete offsets. Invasion and Race: card blocks hand 0, deploying 94, tables 188 (own) and 282, discard
376, known 470, unseen 564, activated 658, supply 752; scalars seat 846, phase 848, to act 854, turn 858,
PT 859, hands 861, then Invasion decks 863, discards 865, totals 867, Race deck 863, discard 864, totals 865
(Ally, Axis per group); both: slot 869, passed 871, progress 873, discarded 875, supply 876, winner 878.
Sicily: hand 0, deploying 94, tables 282, discard 658, known 752, unseen 940, activated 1034, supply 1128;
seat 1222, phase 1225, to act 1231, turn 1236, PT 1237, hands 1240, decks 1243, discards 1245, totals 1247,
slot 1251, passed 1255, progress 1259, discarded 1263, supply 1264, winner 1268.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from warcards.engine.api import Game
from warcards.games.race_to_messina.cards import ALLY, PROGRESS, CardTable
from warcards.games.race_to_messina.params import Variant, variant_with

if TYPE_CHECKING:
    from warcards.games.race_to_messina.game import RaceToMessinaGame

OBSERVATION_VERSION = 1
OBSERVATION_BOUNDS = (0.0, 1.0)

PHASE_NAMES = ("logistics", "strategy", "deployment", "action", "recovery", "over")
TOTAL_SCALE = 100.0
"""Force totals are divided by this (random play stays below 90)."""


@dataclass(frozen=True)
class _SeatLayout:
    """Offsets that depend on the observing seat (names resolved to relative positions)."""

    seat_offset: dict[str, int]
    group_offset: dict[str, int]
    deploy_base: dict[str, int]
    table_base: dict[str, int]
    known_base: dict[str, int]
    to_act: dict[str, int]
    winner: dict[str, int]
    pt_scale: dict[str, float]
    hand_scale: dict[str, float]
    seat_slot: int


@dataclass(frozen=True)
class _Layout:
    """One variant's layout (module docstring)."""

    size: int
    cards: int
    scalars: int
    card_index: dict[str, int]
    discard_base: int
    unseen_base: int
    activated_base: int
    supply_base: int
    phase: dict[str, int]
    turn: int
    turn_scale: float
    pt: int
    hands: int
    decks: dict[str, tuple[int, float]]
    discards: dict[str, tuple[int, float]]
    totals: int
    total_width: int
    slot: int
    passed: int
    progress: int
    progress_cards: int
    """The Progress cards of the game (the most one table can hold activated), at least 1."""
    discarded: int
    discard_limit: float
    supply: int
    winner: int
    seats: tuple[_SeatLayout, ...]




def _deck_name(variant: Variant, family: int, kind: str) -> str:
    suffix = variant.family_zone[family]
    return f"{kind}:{suffix}" if suffix else kind


@lru_cache(maxsize=64)
def _build(variant: Variant, table: CardTable) -> _Layout:
    """Compute every offset of one variant's layout for a card table (cached per variant and table)."""
    cards = table.size
    n = variant.num_players
    groups = len(variant.group_zone)
    own_most = max(len(owned) for owned in variant.seat_groups)
    families = len(variant.family_zone)
    race = variant.name == "race"
    width = 2 if race else 1
    family_size = [0] * families
    for faction in table.faction:
        family_size[0 if race or faction == ALLY else 1] += 1
    discard_block = 1 + own_most + groups
    unseen_block = discard_block + n
    scalars = base = (unseen_block + 3) * cards
    offsets: dict[str, int] = {}
    for name, size in (("seat", n), ("phase", len(PHASE_NAMES)), ("to_act", n + 2), ("turn", 1), ("pt", n),
                       ("hands", n), ("decks", families), ("discards", families), ("totals", groups * width),
                       ("slot", groups), ("passed", groups), ("progress", groups), ("discarded", 1),
                       ("supply", groups), ("winner", n + 1)):
        offsets[name] = base
        base += size
    seats: list[_SeatLayout] = []
    for seat in range(n):
        seat_offset = {name: (other - seat) % n for other, name in enumerate(variant.seats)}
        order = sorted(range(groups), key=lambda g: ((variant.group_owner[g] - seat) % n, g))
        group_offset = {variant.group_zone[g]: r for r, g in enumerate(order)}
        deploy_base = {"deploying:" + variant.group_zone[g].removeprefix("table:"): (1 + j) * cards
                       for j, g in enumerate(variant.seat_groups[seat])}
        to_act = {name: offsets["to_act"] + k for name, k in seat_offset.items()}
        to_act["chance"] = offsets["to_act"] + n
        to_act["terminal"] = offsets["to_act"] + n + 1
        winner = {name: offsets["winner"] + k for name, k in seat_offset.items()}
        winner["draw"] = offsets["winner"] + n
        seats.append(_SeatLayout(
            seat_offset=seat_offset,
            group_offset=group_offset,
            deploy_base=deploy_base,
            table_base={zone: (1 + own_most + r) * cards for zone, r in group_offset.items()},
            known_base={name: (discard_block + k) * cards for name, k in seat_offset.items() if k},
            to_act=to_act,
            winner=winner,
            pt_scale={name: 1.0 / variant.pt_goal[i] for i, name in enumerate(variant.seats)},
            hand_scale={name: 1.0 / variant.hand_size[i] for i, name in enumerate(variant.seats)},
            seat_slot=offsets["seat"] + seat,
        ))
    return _Layout(
        size=base,
        cards=cards,
        scalars=scalars,
        card_index={card: index for index, card in enumerate(table.ids)},
        discard_base=discard_block * cards,
        unseen_base=unseen_block * cards,
        activated_base=(unseen_block + 1) * cards,
        supply_base=(unseen_block + 2) * cards,
        phase={name: offsets["phase"] + i for i, name in enumerate(PHASE_NAMES)},
        turn=offsets["turn"],
        turn_scale=1.0 / variant.turn_limit,
        pt=offsets["pt"],
        hands=offsets["hands"],
        decks={_deck_name(variant, f, "deck"): (offsets["decks"] + f, 1.0 / family_size[f])
               for f in range(families)},
        discards={_deck_name(variant, f, "discard"): (offsets["discards"] + f, 1.0 / family_size[f])
                  for f in range(families)},
        totals=offsets["totals"],
        total_width=width,
        slot=offsets["slot"],
        passed=offsets["passed"],
        progress=offsets["progress"],
        progress_cards=max(1, table.ability.count(PROGRESS)),
        discarded=offsets["discarded"],
        discard_limit=float(variant.discard_limit),
        supply=offsets["supply"],
        winner=offsets["winner"],
        seats=tuple(seats),
    )


def _layout(game: Game) -> _Layout:
    variant = variant_with(str(game.options["variant"]), game.options.get("params"))
    return _build(variant, cast("RaceToMessinaGame", game).table)


def observation_shape(game: Game) -> tuple[int, ...]:
    """The vector's shape: (881,) in Invasion and Race, (1272,) in Sicily."""
    return (_layout(game).size,)


def encode_observation(observation: Mapping[str, Any], game: Game) -> np.ndarray:
    """The float32 vector of one seat's view, laid out as in the module docstring."""
    layout = _layout(game)
    view = layout.seats[observation["seat"]]
    index = layout.card_index
    vector = np.zeros(layout.size, dtype=np.float32)
    hits = [index[card] for card in observation["hand"]]
    for zone, cards in observation["deploying"].items():
        base = view.deploy_base[zone]
        hits.extend(base + index[card] for card in cards)
    activated = layout.activated_base
    for zone, entries in observation["table"].items():
        base = view.table_base[zone]
        for entry in entries:
            c = index[entry["id"]]
            hits.append(base + c)
            if entry["activated"]:
                hits.append(activated + c)
    base = layout.discard_base
    for cards in observation["discards"].values():
        hits.extend(base + index[card] for card in cards)
    for name, cards in observation["known_hands"].items():
        base = view.known_base[name]
        hits.extend(base + index[card] for card in cards)

    seat_offset = view.seat_offset
    group_offset = view.group_offset
    hits.append(view.seat_slot)
    hits.append(layout.phase[observation["phase"]])
    hits.append(view.to_act[observation["current_player"]])
    spots = [layout.turn, layout.discarded]
    values = [observation["turn"] * layout.turn_scale, observation["discarded"] / layout.discard_limit]
    pt_scale = view.pt_scale
    for name, points in observation["pt"].items():
        spots.append(layout.pt + seat_offset[name])
        values.append(points * pt_scale[name])
    hand_scale = view.hand_scale
    for name, size in observation["hand_sizes"].items():
        spots.append(layout.hands + seat_offset[name])
        values.append(size * hand_scale[name])
    for zone, size in observation["decks"].items():
        slot, scale = layout.decks[zone]
        spots.append(slot)
        values.append(size * scale)
    for zone, cards in observation["discards"].items():
        slot, scale = layout.discards[zone]
        spots.append(slot)
        values.append(len(cards) * scale)
    width = layout.total_width
    for zone, sides in observation["totals"].items():
        slot = layout.totals + width * group_offset[zone]
        if width == 1:
            spots.append(slot)
            values.append(sides["total"] / TOTAL_SCALE)
        else:
            spots.extend((slot, slot + 1))
            values.extend((sides["ally"] / TOTAL_SCALE, sides["axis"] / TOTAL_SCALE))
    for zone, count in observation["progress"].items():
        spots.append(layout.progress + group_offset[zone])
        values.append(count / layout.progress_cards)
    slot_zone = observation["slot"]
    if slot_zone is not None:
        hits.append(layout.slot + group_offset[slot_zone])
    for zone in observation["passed"]:
        hits.append(layout.passed + group_offset[zone])
    supply = observation["supply"]
    if supply is not None:
        hits.append(layout.supply + group_offset[supply["group"]])
        if supply["card"] is not None:
            hits.append(layout.supply_base + index[supply["card"]])
    winner = observation["winner"]
    if winner is not None:
        hits.append(view.winner[winner])
    vector[spots] = values
    scalars = vector[layout.scalars:]
    np.minimum(scalars, 1.0, out=scalars)  # every scalar is a count or total, so at least 0
    vector[hits] = 1.0
    unseen = layout.unseen_base
    vector[unseen:unseen + layout.cards] = 1.0 - vector[:unseen].reshape(-1, layout.cards).sum(axis=0)
    return vector


__all__ = [
    "OBSERVATION_BOUNDS",
    "OBSERVATION_VERSION",
    "encode_observation",
    "observation_shape",
]
