"""Naval War observation vectors for the RL adapters (`warcards.rl.encoding`): a fixed, documented layout.

The vector is built from one seat's view (`state.observe(seat)`) alone. Seats are *relative*: r = 0 is the
observing seat, r = 1 the next seat in turn order, …, r = n - 1 (n = players). C is the number of play
cards (108 with the printed card file), S the number of ships (54). Every entry lies in [-1, 1]; all are
in [0, 1] except the scores (block D, slots 6–7). Counts are divided by the divisor given and clipped.

Block A — play cards, offset 0, C × (5 + 6n): card c (in card-file order, `SALVO11x1-1` first) at
`c·(5 + 6n)`, a one-hot of where the seat sees it:

| slot | the card is |
|---|---|
| 0 | in the seat's own hand, not publicly known |
| 1 | in the face-up discard pile |
| 2 | in play: the red card being resolved (`pending`) or the salvo being aimed (`aiming`) |
| 3 | out of the game under the options (gunnery, no Additional Ship) |
| 4 | unseen: the draw pile, other hands (but their known cards), hands discarded unseen |
| 5 + 6r | known to be in r's hand (`known_in_hand`; r = 0: a card of the own hand the others know) |
| 6 + 6r | a minefield before r's task force |
| 7 + 6r | r's Smoke |
| 8 + 6r | r's Destroyer Squadron |
| 9 + 6r | a salvo on r's Destroyer Squadron |
| 10 + 6r | under a ship of r's task force (a salvo, or Additional Damage on one) |

Block B — ships, offset C·(5 + 6n), S × (3 + 2n): ship s (card-file order) at `s·(3 + 2n)`, a one-hot:

| slot | the ship is |
|---|---|
| 0 | unseen: in the harbor, or face down in another task force |
| 1 | out of the game (carriers in the gunnery game) |
| 2 | in the own task force, face down (night actions) |
| 3 + 2r | in r's task force, face up |
| 4 + 2r | in r's Deep Six pile (sunk by r) |

Block C — ship details, offset C·(5 + 6n) + S·(3 + 2n), S × 8: ship s at `8s`:

| slot | meaning |
|---|---|
| 0 | damage (hits taken, minefields included) / the ship's Hit Number, for a ship seen in a task force |
| 1 | turns resting after a Kamikaze strike (`kamikaze_wait`) / 4 |
| 2 | the target of the Submarine or Torpedo Boat being resolved (`pending_target`) |
| 3 | a carrier named for an air strike this turn (`strikes`) |
| 4 | that strike is a Kamikaze |
| 5 | that strike's die is rolled |
| 6 | air strikes named at this ship / 4 |
| 7 | a carrier still to be named for a strike (`carriers_to_name`; hidden at night but to the striker) |

Block D — seats, offset C·(5 + 6n) + S·(11 + 2n), n × (16 + n): relative seat r at `r·(16 + n)`:

| slot | meaning |
|---|---|
| 0 | hand count / 10 |
| 1 | ships in the task force / 16 |
| 2 | of them face down and unidentified (another seat's, night actions) / 16 |
| 3 | minefield hits on the task force / 10 |
| 4 | hits on r's Destroyer Squadron / 4 |
| 5 | points in r's Deep Six pile (Hit Numbers) / target |
| 6 | score at the start of the round / target, in [-1, 1] |
| 7 | the last round's points / target, in [-1, 1] |
| 8 | afloat (not eliminated this round) |
| 9 | in the seat's fleet (fleet play; r = 0 too) |
| 10 | the turn is r's |
| 11 | r is to act (`current_player`) |
| 12 | r is the dealer |
| 13 | r is the task force a Destroyer Squadron attacks (`dd_target`) |
| 14 | r is done in the opening (`opening_done`) |
| 15 | r's task force was mined in the opening (`mined_in_opening`) |
| 16 + q | the last minefield before r was laid by relative seat q (`last_minefield`) |

Block E — game, the last 32 entries: 0–15 phase one-hot (`deal-ships`, `deal-cards`, `refill`, `opening`,
`choice`, `draw`, `play`, `red`, `roll`, `additional-ship`, `air-strike`, `dd-target`, `dd-sink`, `give`,
`end`, `aim`); 16 chance to act; 17 game over; 18–21 what the next die decides (`submarine`,
`torpedo-boat`, `destroyer-squadron`, `air-strike`); 22 opening in progress; 23 round / 20; 24 turns this
round / 400; 25 draw pile / C; 26 harbor / S; 27 discard pile / C; 28 cards discarded unseen / C;
29 of them not red (`unseen_non_red`) / C; 30 ships still to sink in a Destroyer Squadron attack / 6;
31 target / 200.

Size: C·(5 + 6n) + S·(11 + 2n) + n·(16 + n) + 32, e.g. 4,270 for 4 players with the printed cards.
Left out: `attached` (which salvo an Additional Damage lies on: both are under the same ship),
`swap_card` (it is a known card in the mate's hand), `deal_left`, `returns`, the seats' `teams` beyond
block D slot 1, and ships' static properties (gun, Hit Number: fixed by the ship's index).
"""

from __future__ import annotations

import struct
import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from warcards.engine.api import Game
from warcards.games.naval_war.codes import PHASE_NAMES

if TYPE_CHECKING:
    from warcards.games.naval_war.game import NavalWarGame

OBSERVATION_VERSION = 1
OBSERVATION_BOUNDS = (-1.0, 1.0)

CARD_SLOTS_BASE = 5
"""Block A slots before the per-seat ones (own hand, discard, play, box, unseen)."""
CARD_SLOTS_PER_SEAT = 6
SHIP_SLOTS_BASE = 3
SHIP_SLOTS_PER_SEAT = 2
SHIP_DETAILS = 8
SEAT_SLOTS_BASE = 16
GLOBAL_SLOTS = 32
ROLLS = ("submarine", "torpedo-boat", "destroyer-squadron", "air-strike")

# Block A slots.
_HAND, _DISCARD, _PLAY, _BOX, _UNSEEN = range(5)
_KNOWN, _MINES, _SMOKE, _DD, _ON_DD, _ON_SHIP = range(5, 11)
# Block B slots.
_HARBOR, _SHIP_BOX, _OWN_DOWN, _FLEET, _DEEP = range(5)
# Block E slots after the phases.
_CHANCE, _OVER, _ROLL, _OPENING = 16, 17, 18, 22

Index = dict[str, int]


@dataclass(frozen=True)
class _Layout:
    """Offsets and id -> flat index maps for one game (built once per game)."""

    n: int
    size: int
    ship_offset: int
    detail_offset: int
    seat_offset: int
    seat_stride: int
    global_offset: int
    num_cards: int
    num_ships: int
    template: np.ndarray
    """Every card unseen (or out of the game), every ship in the harbor (or out of the game)."""
    unseen_of: np.ndarray
    """For each index of blocks A and B, the unseen slot (block A slot 4, block B slot 0) of its row."""
    hand: Index
    discard: Index
    play: Index
    known: list[Index]
    mines: list[Index]
    smoke: list[Index]
    dd: list[Index]
    on_dd: list[Index]
    on_ship: list[Index]
    fleet: list[Index]
    own_down: Index
    deep: list[Index]
    detail: Index
    ship_hits: dict[str, int]
    phase: dict[str, int]
    roll: dict[str, int]
    tail: struct.Struct
    """Packs blocks D and E (float32, native order) straight into the vector's buffer."""


def _card_index(card_ids: tuple[str, ...], stride: int, slot: int, offset: int = 0) -> Index:
    return {cid: offset + c * stride + slot for c, cid in enumerate(card_ids)}


_LAYOUTS: weakref.WeakKeyDictionary[Game, _Layout] = weakref.WeakKeyDictionary()
"""Each game's layout, kept while the game lives (a game stays picklable: nothing is stored on it)."""


def _layout(game: Game) -> _Layout:
    cached = _LAYOUTS.get(game)
    if cached is not None:
        return cached
    naval = cast("NavalWarGame", game)
    t = naval.table
    n = naval.num_players
    cards, ships = t.card_ids, t.ship_ids
    card_stride = CARD_SLOTS_BASE + CARD_SLOTS_PER_SEAT * n
    ship_stride = SHIP_SLOTS_BASE + SHIP_SLOTS_PER_SEAT * n
    ship_offset = len(cards) * card_stride
    detail_offset = ship_offset + len(ships) * ship_stride
    seat_offset = detail_offset + len(ships) * SHIP_DETAILS
    seat_stride = SEAT_SLOTS_BASE + n
    global_offset = seat_offset + n * seat_stride
    size = global_offset + GLOBAL_SLOTS
    template = np.zeros(size, dtype=np.float32)
    boxed_cards, boxed_ships = naval.boxed_cards, naval.boxed_ships
    for c in range(len(cards)):
        template[c * card_stride + (_BOX if c in boxed_cards else _UNSEEN)] = 1.0
    for s in range(len(ships)):
        template[ship_offset + s * ship_stride + (_SHIP_BOX if s in boxed_ships else _HARBOR)] = 1.0
    flat = np.arange(detail_offset, dtype=np.intp)
    unseen_of = np.where(
        flat < ship_offset,
        flat - flat % card_stride + _UNSEEN,
        flat - (flat - ship_offset) % ship_stride + _HARBOR,
    ).astype(np.intp)

    def per_seat(slot: int) -> list[Index]:
        return [_card_index(cards, card_stride, slot + CARD_SLOTS_PER_SEAT * r) for r in range(n)]

    layout = _Layout(
        n=n,
        size=size,
        ship_offset=ship_offset,
        detail_offset=detail_offset,
        seat_offset=seat_offset,
        seat_stride=seat_stride,
        global_offset=global_offset,
        num_cards=len(cards),
        num_ships=len(ships),
        template=template,
        unseen_of=unseen_of,
        hand=_card_index(cards, card_stride, _HAND),
        discard=_card_index(cards, card_stride, _DISCARD),
        play=_card_index(cards, card_stride, _PLAY),
        known=per_seat(_KNOWN),
        mines=per_seat(_MINES),
        smoke=per_seat(_SMOKE),
        dd=per_seat(_DD),
        on_dd=per_seat(_ON_DD),
        on_ship=per_seat(_ON_SHIP),
        fleet=[_card_index(ships, ship_stride, _FLEET + SHIP_SLOTS_PER_SEAT * r, ship_offset) for r in range(n)],
        own_down=_card_index(ships, ship_stride, _OWN_DOWN, ship_offset),
        deep=[_card_index(ships, ship_stride, _DEEP + SHIP_SLOTS_PER_SEAT * r, ship_offset) for r in range(n)],
        detail=_card_index(ships, SHIP_DETAILS, 0, detail_offset),
        ship_hits=dict(zip(ships, t.ship_hits, strict=True)),
        phase={name: i for i, name in enumerate(PHASE_NAMES)},
        roll={name: _ROLL + i for i, name in enumerate(ROLLS)},
        tail=struct.Struct(f"={size - seat_offset}f"),
    )
    _LAYOUTS[game] = layout
    return layout


def observation_shape(game: Game) -> tuple[int, ...]:
    """(C·(5 + 6n) + S·(11 + 2n) + n·(16 + n) + 32,): see the module docstring."""
    return (_layout(game).size,)


_SCALED = tuple(tuple(min(k / d, 1.0) if d else 0.0 for d in range(17)) for k in range(256))
"""`_SCALED[k][d]` = min(k / d, 1): a small count scaled without a division (counts stay below 256)."""


def _clip(x: float) -> float:
    return -1.0 if x < -1.0 else 1.0 if x > 1.0 else x


def encode_observation(observation: Mapping[str, Any], game: Game) -> np.ndarray:
    """The float32 vector of one seat's view (layout in the module docstring)."""
    lay = _layout(game)
    vec = lay.template.copy()
    n = lay.n
    seat: int = observation["seat"]
    target = observation["target"] or 1
    forces = observation["task_forces"]
    seen: list[int] = []  # block A and B entries set to 1 (their rows leave the unseen slot)
    ones: list[int] = []  # other entries set to 1

    own_known = forces[seat]["known_in_hand"]
    hand = observation["hand"]
    if own_known:
        hand = [card for card in hand if card not in own_known]
    seen += map(lay.hand.__getitem__, hand)
    seen += map(lay.discard.__getitem__, observation["discard"])
    for key in ("pending", "aiming"):
        card = observation[key]
        if card is not None:
            seen.append(lay.play[card])

    detail = lay.detail
    ship_hits = lay.ship_hits
    teams = observation["teams"]
    my_team = teams[seat]
    turn = observation["turn"]
    cur = observation["current_player"]
    dealer = observation["dealer"]
    dd_target = observation["dd_target"]
    opening_done = observation["opening_done"]
    mined = observation["mined_in_opening"]
    scores = observation["scores"]
    last_round = observation["last_round"]
    tail = [0.0] * (n * lay.seat_stride + GLOBAL_SLOTS)  # blocks D and E
    scaled = _SCALED
    damage_index: list[int] = []
    damage_value: list[float] = []
    seat_stride = lay.seat_stride
    for j, force in enumerate(forces):
        r = (j - seat) % n
        seen += map(lay.known[r].__getitem__, force["known_in_hand"])
        seen += map(lay.mines[r].__getitem__, force["mines"])
        card = force["smoke"]
        if card is not None:
            seen.append(lay.smoke[r][card])
        squadron = force["destroyer_squadron"]
        if squadron is not None:
            seen.append(lay.dd[r][squadron["card"]])
            seen += map(lay.on_dd[r].__getitem__, squadron["salvos"])
        on_ship = lay.on_ship[r]
        fleet = lay.fleet[r]
        hidden = 0
        ships = force["ships"]
        for ship in ships:
            sid = ship["id"]
            if sid is None:
                hidden += 1
                continue
            seen.append(lay.own_down[sid] if ship["face_down"] else fleet[sid])
            damage = ship["damage"]
            if damage:
                damage_index.append(detail[sid])
                damage_value.append(scaled[damage][ship_hits[sid]])
            for salvo in ship["salvos"]:
                seen.append(on_ship[salvo["card"]])
                if salvo["additional"]:
                    seen += map(on_ship.__getitem__, salvo["additional"])
        deep_six = force["deep_six"]
        seen += map(lay.deep[r].__getitem__, deep_six)
        at = r * seat_stride
        last = force["last_minefield"]
        if last >= 0:
            tail[at + SEAT_SLOTS_BASE + (last - seat) % n] = 1.0
        tail[at:at + SEAT_SLOTS_BASE] = (
            scaled[force["hand_count"]][10],
            scaled[len(ships)][16],
            scaled[hidden][16],
            scaled[force["mine_hits"]][10],
            scaled[squadron["hits"]][4] if squadron is not None else 0.0,
            min(sum(map(ship_hits.__getitem__, deep_six)) / target, 1.0) if deep_six else 0.0,
            _clip(scores[j] / target),
            _clip(last_round[j] / target),
            1.0 if force["alive"] else 0.0,
            1.0 if my_team >= 0 and teams[j] == my_team else 0.0,
            1.0 if j == turn else 0.0,
            1.0 if j == cur else 0.0,
            1.0 if j == dealer else 0.0,
            1.0 if j == dd_target else 0.0,
            1.0 if j in opening_done else 0.0,
            1.0 if j in mined else 0.0,
        )

    if seen:
        placed = np.fromiter(seen, dtype=np.intp, count=len(seen))
        vec[lay.unseen_of[placed]] = 0.0
        vec[placed] = 1.0
    if damage_index:
        vec[damage_index] = damage_value
    for sid, wait in observation["kamikaze_wait"].items():
        vec[detail[sid] + 1] = min(wait / 4, 1.0)
    sid = observation["pending_target"]
    if sid is not None:
        ones.append(detail[sid] + 2)
    for strike in observation["strikes"]:
        at = detail[strike["carrier"]]
        ones.append(at + 3)
        if strike["kamikaze"]:
            ones.append(at + 4)
        if strike["rolled"]:
            ones.append(at + 5)
        at = detail[strike["target"]] + 6
        vec[at] = min(vec[at] + 0.25, 1.0)
    carriers = observation["carriers_to_name"]
    if carriers:
        ones += (detail[sid] + 7 for sid in carriers)
    if ones:
        vec[ones] = 1.0

    g = n * seat_stride
    phase = lay.phase.get(observation["phase"])
    if phase is not None:
        tail[g + phase] = 1.0
    if cur == -1:
        tail[g + _CHANCE] = 1.0
    elif cur < -1:
        tail[g + _OVER] = 1.0
    roll = observation["roll"]
    if roll is not None:
        tail[g + lay.roll[roll]] = 1.0
    if observation["opening"]:
        tail[g + _OPENING] = 1.0
    num_cards = lay.num_cards
    tail[g + 23:] = (
        min(observation["round"] / 20, 1.0),
        min(observation["turns"] / 400, 1.0),
        min(observation["deck_size"] / num_cards, 1.0),
        min(observation["harbor_size"] / lay.num_ships, 1.0),
        min(len(observation["discard"]) / num_cards, 1.0),
        min(observation["unseen_discards"] / num_cards, 1.0),
        min(observation["unseen_non_red"] / num_cards, 1.0),
        min(max(observation["dd_left"], 0) / 6, 1.0),
        min(target / 200, 1.0),
    )
    lay.tail.pack_into(vec.data, lay.seat_offset * 4, *tail)
    return vec


__all__ = ["OBSERVATION_BOUNDS", "OBSERVATION_VERSION", "encode_observation", "observation_shape"]
