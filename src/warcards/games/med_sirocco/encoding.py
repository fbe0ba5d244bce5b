"""Med Sirocco's observation vector for the RL adapters: a fixed, documented layout read from the view only.

`encode_observation(view, game)` turns one seat's view (`state.observe(seat)`, views.py) into a float32 vector
of `observation_shape(game) == (5597,)`, every entry in [0, 1]. The layout does not depend on the options:
seat blocks always have six slots (rule 1.0: at most six players) and hold seats *relative to the observer*
(slot r is the seat `(seat + r) % players`; slot 0 is the observer, slots >= players stay 0).

**Card blocks** (offsets 0–5444): 33 blocks of 165 entries, block k at `165 * k`; entry i of a block is card
i of the deck order A01–A59, X01–X55, S01–S07, O01–O44 (`game.ids`). Blocks 0–24 are where the seat sees the
card, each card in at most one of them (except during a 5.0 share, when the Operation just won is shown both
as won and as the Operation); block 25 marks the cards in none of them; blocks 26–32 are flags on visible
cards.

| block | offset | meaning |
|---|---|---|
| 0 | 0 | in the seat's own hand (`hand`) |
| 1–6 | 165–1154 | in play by relative seat 0–5, face up, or the seat's own face-down cards (`plays`) |
| 7–11 | 1155–1979 | known to be in the hand of relative seat 1–5 (`known_in_hands`: S02 Lost, 2.41 pick-ups) |
| 12–17 | 1980–2969 | Operations won by relative seat 0–5 (`won`) |
| 18 | 2970 | captured by the seat, under its won Operations (`captured`; others' are hidden, 3.4) |
| 19 | 3135 | discard pile (`discard`) |
| 20 | 3300 | under the Operation after a drawn engagement (`under_operation`) |
| 21 | 3465 | the Operation being engaged (`operation`) |
| 22 | 3630 | the two Operations drawn under 5.0, when the seat is shown them (`operation_choice`) |
| 23 | 3795 | Operations set aside (`operations_out`) |
| 24 | 3960 | sunk, out of the game (`sunk`) |
| 25 | 4125 | unseen: in none of blocks 0–24 (the piles, other hands, others' face-down cards and captures) |
| 26 | 4290 | flag: played face down (the seat's own cards of a Battle's 2nd round) |
| 27 | 4455 | flag: played in round 2 |
| 28 | 4620 | flag: a visible card in play has a card played on it (`on`) |
| 29 | 4785 | flag: the target of Bomb alley (`bomb_alley_on`) |
| 30 | 4950 | flag: a ship the Supply card may pick up (`supply_candidates`, 2.41) |
| 31 | 5115 | flag: a prize being shared under 5.0 (`share_pool`) |
| 32 | 5280 | flag: a card the seat chose to give away for S02 Lost (`lost_selected`) |

**Scalars** (offsets 5445–5596). "x6" is one entry per relative seat 0–5; a `/k` entry is `min(x / k, 1)`.

| offset | size | meaning |
|---|---|---|
| 5445 | 14 | phase one-hot, in `codes.PHASE_NAMES` order (chance, choose-operation, declare-type, turn, play, admiral, target, sirocco-target, held-sirocco, lost-card, lost-seat, supply, share, end) |
| 5459 | 6 | relative seat to act (`current_player`; all 0 at chance and at the end) |
| 5465 | 6 | relative seat of the 1st player (`first_player`) |
| 5471 | 6 | relative seat of the dealer (`dealer`) |
| 5477 | 6 | relative seat holding a passed Sirocco (`sirocco_holder`) |
| 5483 | 6 | x6 plays for the Allies in this engagement (`sides`) |
| 5489 | 6 | x6 plays for the Axis (`sides`) |
| 5495 | 6 | x6 cancelled by a Sirocco (`cancelled`) |
| 5501 | 6 | x6 sat out (`sat_out`) |
| 5507 | 6 | x6 hand size / 10 (`hand_sizes`; the limit is 9, 1.5) |
| 5513 | 6 | x6 (hand limit - 6) / 3 (`hand_limits`) |
| 5519 | 6 | x6 face-down cards in play the seat cannot see / 10 |
| 5525 | 6 | x6 captured cards / 30 (`captured_counts`) |
| 5531 | 6 | x6 Operations won / 22 |
| 5537 | 6 | x6 VP of the Operations won / 100 (`won_vp`) |
| 5543 | 6 | x6 final VP / 100 (`final_vp`, at the end only) |
| 5549 | 6 | x6 series VP / 150 (`series_vp`, 1.2) |
| 5555 | 6 | x6 prizes received / 10 (`share_counts`, 5.0) |
| 5561 | 6 | x6 times chosen for S02 Lost / 2 (`lost_seats`) |
| 5567 | 1 | the seat's own VP / 100 (`my_vp`: won Operations and captured cards) |
| 5568 | 2 | Force pile / 121 (`pile_size`); Operations pile / 44 (`operations_left`) |
| 5570 | 3 | Operations done / 22, Operations of the game / 22, Operations still to play / 22 |
| 5573 | 2 | how many Operations were drawn under 5.0 when the seat is not shown them / 2; how many cards the S02 Lost player chose when the seat is not he / 2 |
| 5575 | 1 | game number / 12 (`game_number`, series play) |
| 5576 | 2 | kind one-hot: convoy, battle |
| 5578 | 7 | engagement type one-hot: air, surface, air & surface, sub, air & sub, surface & sub, combined |
| 5585 | 2 | round 2 is being played; the engagement has 2 rounds |
| 5587 | 2 | restriction on the Allies, on the Axis (`restriction`) |
| 5589 | 2 | Admiral's combined type in force (`admiral_combined`); Shallows in force (`shallows`) |
| 5591 | 1 | series play (`series_vp` present) |
| 5592 | 5 | player count one-hot, 2–6 |

The log is left out: its present consequences are in the fields above.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from warcards.engine.api import Game
from warcards.games.med_sirocco.game import MedSiroccoGame

OBSERVATION_VERSION = 1
OBSERVATION_BOUNDS = (0.0, 1.0)

MAX_SEATS = 6
N_CARDS = 165
N_BLOCKS = 33
# Card blocks (each N_CARDS wide).
HAND, PLAY, KNOWN, WON, CAPTURED, DISCARD, UNDER, OPERATION, CHOICE, OPS_OUT, SUNK, UNSEEN = (
    0, 1, 7, 12, 18, 19, 20, 21, 22, 23, 24, 25)
FACE_DOWN, ROUND_2, HOST, BOMB, SUPPLY, SHARE, LOST = 26, 27, 28, 29, 30, 31, 32
PHASES = ("chance", "choose-operation", "declare-type", "turn", "play", "admiral", "target", "sirocco-target",
          "held-sirocco", "lost-card", "lost-seat", "supply", "share", "end")
ENGAGEMENT_TYPES = ("air", "surface", "air & surface", "sub", "air & sub", "surface & sub", "combined")
# Scalar offsets.
SCALARS = N_BLOCKS * N_CARDS
S_PHASE = SCALARS
S_CURRENT = S_PHASE + len(PHASES)
S_FIRST = S_CURRENT + MAX_SEATS
S_DEALER = S_FIRST + MAX_SEATS
S_SIROCCO = S_DEALER + MAX_SEATS
S_ALLIES = S_SIROCCO + MAX_SEATS
S_AXIS = S_ALLIES + MAX_SEATS
S_CANCELLED = S_AXIS + MAX_SEATS
S_SAT_OUT = S_CANCELLED + MAX_SEATS
S_NUMBERS = S_SAT_OUT + MAX_SEATS
# The numbers block: ten x6 fields, then nine single numbers, each with its scale.
SEAT_SCALES = (10.0, 3.0, 10.0, 30.0, 22.0, 100.0, 100.0, 150.0, 10.0, 2.0)
SINGLE_SCALES = (100.0, 121.0, 44.0, 22.0, 22.0, 22.0, 2.0, 2.0, 12.0)
N_NUMBERS = len(SEAT_SCALES) * MAX_SEATS + len(SINGLE_SCALES)
S_KIND = S_NUMBERS + N_NUMBERS
S_TYPE = S_KIND + 2
S_ROUND = S_TYPE + len(ENGAGEMENT_TYPES)
S_RESTRICTION = S_ROUND + 2
S_ADMIRAL = S_RESTRICTION + 2
S_SERIES = S_ADMIRAL + 2
S_PLAYERS = S_SERIES + 1
SIZE = S_PLAYERS + 5
OBSERVATION_SHAPE = (SIZE,)

_SCALES = np.array([1.0 / k for k in SEAT_SCALES for _ in range(MAX_SEATS)] + [1.0 / k for k in SINGLE_SCALES],
                   dtype=np.float32)
# Indices travel as 2-byte little-endian chunks joined into one buffer (cheaper than Python int lists).
_INDEX = np.dtype("<u2")
_B = [i.to_bytes(2, "little") for i in range(SIZE)]
_PHASE = {name: _B[S_PHASE + i] for i, name in enumerate(PHASES)}
_TYPE = {name: _B[S_TYPE + i] for i, name in enumerate(ENGAGEMENT_TYPES)}
_SIDE = {"allies": S_ALLIES, "axis": S_AXIS}
_RESTRICTION = {"allies": _B[S_RESTRICTION], "axis": _B[S_RESTRICTION + 1]}
_KIND = {"convoy": _B[S_KIND], "battle": _B[S_KIND + 1]}
_ZEROS = [0] * MAX_SEATS


class _Tables:
    """Per-deck lookups: for each card block, card id -> its index in the vector as a 2-byte chunk."""

    def __init__(self, ids: tuple[str, ...]) -> None:
        if len(ids) != N_CARDS:
            raise ValueError(f"med-sirocco encoder: the deck has {len(ids)} cards, the layout {N_CARDS}")
        self.blocks: list[dict[str, bytes]] = [
            {card: _B[block * N_CARDS + i] for i, card in enumerate(ids)} for block in range(N_BLOCKS)
        ]


_TABLES: dict[tuple[str, ...], _Tables] = {}


def _tables(game: Game) -> _Tables:
    """The game's lookups, cached on the game object (and shared per deck)."""
    tables: _Tables | None = game.__dict__.get("_observation_tables")
    if tables is None:
        if not isinstance(game, MedSiroccoGame):
            raise TypeError(f"med-sirocco encoder: {game!r} is not a Med Sirocco game")
        ids = tuple(game.table.ids)
        tables = _TABLES.get(ids)
        if tables is None:
            tables = _TABLES[ids] = _Tables(ids)
        game.__dict__["_observation_tables"] = tables
    return tables


def observation_shape(game: Game) -> tuple[int, ...]:
    """The vector's shape: the same for every option set."""
    return OBSERVATION_SHAPE


def encode_observation(observation: Mapping[str, Any], game: Game) -> np.ndarray:
    """The seat's view as the documented vector (module docstring); reads only `observation`."""
    blocks = _tables(game).blocks
    seat: int = observation["seat"]
    n: int = observation["players"]
    rel = [(p - seat) % n for p in range(n)]
    ones: list[bytes] = []
    put = ones.extend
    add = ones.append

    put(map(blocks[HAND].__getitem__, observation["hand"]))
    hidden_down = [0] * n
    for play in observation["plays"]:
        card = play["card"]
        if card is None:
            hidden_down[play["seat"]] += 1
            continue
        add(blocks[PLAY + rel[play["seat"]]][card])
        if play["face_down"]:
            add(blocks[FACE_DOWN][card])
        if play["round"] >= 2:
            add(blocks[ROUND_2][card])
        host = play["on"]
        if host is not None:
            add(blocks[HOST][host])
    known = observation["known_in_hands"]
    won = observation["won"]
    for p in range(n):
        r = rel[p]
        if r and known[p]:
            put(map(blocks[KNOWN + r - 1].__getitem__, known[p]))
        if won[p]:
            put(map(blocks[WON + r].__getitem__, won[p]))
    put(map(blocks[CAPTURED].__getitem__, observation["captured"]))
    put(map(blocks[DISCARD].__getitem__, observation["discard"]))
    put(map(blocks[UNDER].__getitem__, observation["under_operation"]))
    operation = observation["operation"]
    if operation is not None:
        add(blocks[OPERATION][operation])
    choice = observation["operation_choice"]
    if isinstance(choice, list):
        put(map(blocks[CHOICE].__getitem__, choice))
    put(map(blocks[OPS_OUT].__getitem__, observation["operations_out"]))
    put(map(blocks[SUNK].__getitem__, observation["sunk"]))
    bomb = observation["bomb_alley_on"]
    if bomb is not None:
        add(blocks[BOMB][bomb])
    put(map(blocks[SUPPLY].__getitem__, observation["supply_candidates"]))
    put(map(blocks[SHARE].__getitem__, observation["share_pool"]))
    lost = observation["lost_selected"]
    if isinstance(lost, list):
        put(map(blocks[LOST].__getitem__, lost))

    add(_PHASE[observation["phase"]])
    for base, who in ((S_CURRENT, observation["current_player"]), (S_FIRST, observation["first_player"]),
                      (S_DEALER, observation["dealer"]), (S_SIROCCO, observation["sirocco_holder"])):
        if who is not None:
            add(_B[base + rel[who]])
    sides = observation["sides"]
    cancelled = observation["cancelled"]
    sat_out = observation["sat_out"]
    for p in range(n):
        side = sides[p]
        if side is not None:
            add(_B[_SIDE[side] + rel[p]])
        if cancelled[p]:
            add(_B[S_CANCELLED + rel[p]])
        if sat_out[p]:
            add(_B[S_SAT_OUT + rel[p]])
    kind = observation["kind"]
    if kind is not None:
        add(_KIND[kind])
    engagement = observation["engagement_type"]
    if engagement is not None:
        add(_TYPE[engagement])
    if observation["round"] >= 2:
        add(_B[S_ROUND])
    if observation["rounds"] >= 2:
        add(_B[S_ROUND + 1])
    restriction = observation["restriction"]
    if restriction is not None:
        add(_RESTRICTION[restriction])
    if observation["admiral_combined"]:
        add(_B[S_ADMIRAL])
    if observation["shallows"]:
        add(_B[S_ADMIRAL + 1])
    series = observation["series_vp"]
    if series is not None:
        add(_B[S_SERIES])
    add(_B[S_PLAYERS + n - 2])

    vector = np.zeros(SIZE, dtype=np.float32)
    vector[np.frombuffer(b"".join(ones), dtype=_INDEX)] = 1.0
    located = vector[: UNSEEN * N_CARDS].reshape(UNSEEN, N_CARDS).max(axis=0)
    np.subtract(1.0, located, out=vector[UNSEEN * N_CARDS: (UNSEEN + 1) * N_CARDS])

    pad = _ZEROS[n:]

    def turned(values: list[int]) -> list[int]:
        """Per-seat values in relative seat order, padded to six."""
        return values[seat:] + values[:seat] + pad

    final_vp = observation.get("final_vp")
    share = observation["share_counts"]
    lost_seats = observation["lost_seats"]
    total = observation["operations_total"]
    done = observation["operations_done"]
    numbers = (
        turned(observation["hand_sizes"])
        + turned([limit - 6 for limit in observation["hand_limits"]])
        + turned(hidden_down)
        + turned(observation["captured_counts"])
        + turned([len(cards) for cards in won])
        + turned(observation["won_vp"])
        + (turned(final_vp) if final_vp is not None else _ZEROS)
        + (turned(series) if series is not None else _ZEROS)
        + (turned(share) if share else _ZEROS)
        + (turned([lost_seats.count(p) for p in range(n)]) if lost_seats else _ZEROS)
        + [observation["my_vp"], observation["pile_size"], observation["operations_left"], done, total,
           total - done, 0 if isinstance(choice, list) else choice, 0 if isinstance(lost, list) else lost,
           observation["game_number"]]
    )
    scaled = vector[S_NUMBERS:S_KIND]
    np.multiply(np.array(numbers, dtype=np.float32), _SCALES, out=scaled)
    np.minimum(scaled, 1.0, out=scaled)
    return vector


__all__ = ["OBSERVATION_BOUNDS", "OBSERVATION_SHAPE", "OBSERVATION_VERSION", "encode_observation",
           "observation_shape"]
