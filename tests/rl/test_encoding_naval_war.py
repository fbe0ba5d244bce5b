"""Naval War's own observation encoder: shape, bounds, hidden information, and the documented layout."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import warcards
from warcards.engine import CHANCE, Game, State, sample_chance
from warcards.engine.registry import conformance_configs
from warcards.games.naval_war.encoding import (
    CARD_SLOTS_BASE,
    CARD_SLOTS_PER_SEAT,
    GLOBAL_SLOTS,
    OBSERVATION_BOUNDS,
    OBSERVATION_VERSION,
    SEAT_SLOTS_BASE,
    SHIP_DETAILS,
    SHIP_SLOTS_BASE,
    SHIP_SLOTS_PER_SEAT,
    encode_observation,
    observation_shape,
)
from warcards.rl.encoding import encoder_for

CONFIGS = conformance_configs("naval-war")
LOW, HIGH = OBSERVATION_BOUNDS
HAND, DISCARD, PLAY, BOX, UNSEEN = range(5)
KNOWN, MINES, SMOKE, DD, ON_DD, ON_SHIP = range(6)
HARBOR, SHIP_BOX, OWN_DOWN, FLEET, DEEP = range(5)


def _label(config: dict[str, Any]) -> str:
    return ",".join(f"{key}={value}" for key, value in sorted(config.items()))


def _sample_states(game: Game, seed: int, count: int) -> list[State]:
    """`count` states along one seeded random playout (decision points, the last maybe terminal)."""
    rng = random.Random(seed)
    stops = sorted(rng.sample(range(1, 400), count))
    states: list[State] = []
    state = game.new_initial_state()
    decisions = 0
    while len(states) < count:
        if state.is_terminal():
            states.append(state)
            break
        if state.current_player() == CHANCE:
            state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
            continue
        decisions += 1
        if decisions == stops[len(states)]:
            states.append(state.clone())
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    return states


class Blocks:
    """The blocks of one vector as arrays, from the documented offsets."""

    def __init__(self, game: Game, vector: np.ndarray) -> None:
        t = game.table  # type: ignore[attr-defined]
        n = game.num_players
        self.n = n
        card_stride = CARD_SLOTS_BASE + CARD_SLOTS_PER_SEAT * n
        ship_stride = SHIP_SLOTS_BASE + SHIP_SLOTS_PER_SEAT * n
        at = 0
        self.cards = vector[at:at + t.num_cards * card_stride].reshape(t.num_cards, card_stride)
        at += t.num_cards * card_stride
        self.ships = vector[at:at + t.num_ships * ship_stride].reshape(t.num_ships, ship_stride)
        at += t.num_ships * ship_stride
        self.details = vector[at:at + t.num_ships * SHIP_DETAILS].reshape(t.num_ships, SHIP_DETAILS)
        at += t.num_ships * SHIP_DETAILS
        self.seats = vector[at:at + n * (SEAT_SLOTS_BASE + n)].reshape(n, SEAT_SLOTS_BASE + n)
        at += n * (SEAT_SLOTS_BASE + n)
        self.game = vector[at:]
        assert len(self.game) == GLOBAL_SLOTS
        self.card_row = {cid: i for i, cid in enumerate(t.card_ids)}
        self.ship_row = {sid: i for i, sid in enumerate(t.ship_ids)}

    def card(self, card: str) -> np.ndarray:
        return self.cards[self.card_row[card]]

    def ship(self, ship: str) -> np.ndarray:
        return self.ships[self.ship_row[ship]]

    @staticmethod
    def seat_slot(r: int, slot: int) -> int:
        return CARD_SLOTS_BASE + CARD_SLOTS_PER_SEAT * r + slot


def _expected_slots(state: Any, seat: int) -> tuple[dict[str, int], dict[str, int]]:
    """Block A and B slots of every card and ship, derived from the god view (what the encoder must see)."""
    n = state.game.num_players
    zones = state.zones()
    position = state.position()
    known = {state.table.card_ids[c]: j for j in range(n) for c in state.known[j]}
    face_down = set(position["face_down"])
    owner = {ship: int(zone.split(":")[1]) for zone, ships in zones.items() if zone.startswith("fleet:")
             for ship in ships}
    cards: dict[str, int] = {}
    ships: dict[str, int] = {}
    per_seat = {"mines": MINES, "smoke": SMOKE, "dd": DD, "dd-salvos": ON_DD}
    for zone, ids in zones.items():
        kind, _, where = zone.partition(":")
        for ident in ids:
            if zone in ("deck", "discard:unseen"):
                cards[ident] = UNSEEN
            elif kind == "discard":
                cards[ident] = DISCARD
            elif kind == "play":
                cards[ident] = PLAY
            elif kind == "box" and ident in state.table.card_ids:
                cards[ident] = BOX
            elif kind == "box":
                ships[ident] = SHIP_BOX
            elif kind == "harbor":
                ships[ident] = HARBOR
            elif kind == "hand":
                j = int(where)
                r = (j - seat) % n
                if ident in known:
                    cards[ident] = Blocks.seat_slot(r, KNOWN)
                else:
                    cards[ident] = HAND if j == seat else UNSEEN
            elif kind in per_seat:
                cards[ident] = Blocks.seat_slot((int(where) - seat) % n, per_seat[kind])
            elif kind == "on":
                cards[ident] = Blocks.seat_slot((owner[where] - seat) % n, ON_SHIP)
            elif kind == "fleet":
                j = int(where)
                if ident in face_down:
                    ships[ident] = OWN_DOWN if j == seat else HARBOR
                else:
                    ships[ident] = FLEET + SHIP_SLOTS_PER_SEAT * ((j - seat) % n)
            elif kind == "deep6":
                ships[ident] = DEEP + SHIP_SLOTS_PER_SEAT * ((int(where) - seat) % n)
            else:
                raise AssertionError(f"zone {zone} is not covered")
    return cards, ships


@pytest.mark.parametrize("config", CONFIGS, ids=_label)
def test_shape_dtype_bounds_and_card_places(config: dict[str, Any]) -> None:
    game = warcards.load_game("naval-war", **config)
    shape = observation_shape(game)
    for seed in (1, 2):
        for state in _sample_states(game, seed, 3):
            for seat in range(game.num_players):
                vector = encode_observation(state.observe(seat), game)
                assert vector.shape == shape and vector.dtype == np.float32
                assert vector.min() >= LOW and vector.max() <= HIGH
                blocks = Blocks(game, vector)
                cards, ships = _expected_slots(state, seat)
                for card, slot in cards.items():
                    row = blocks.card(card)
                    assert row[slot] == 1.0 and row.sum() == 1.0, (card, slot, np.flatnonzero(row))
                for ship, slot in ships.items():
                    row = blocks.ship(ship)
                    assert row[slot] == 1.0 and row.sum() == 1.0, (ship, slot, np.flatnonzero(row))
                assert len(cards) == len(blocks.cards) and len(ships) == len(blocks.ships)


@pytest.mark.parametrize("config", [c for c in CONFIGS if c.get("night") or c.get("fleets") or c["players"] in (2, 4)],
                         ids=_label)
def test_what_the_seat_cannot_see_does_not_change_the_vector(config: dict[str, Any]) -> None:
    game = warcards.load_game("naval-war", **config)
    rng = random.Random(5)
    resampled = 0
    for state in _sample_states(game, 3, 4):
        if state.is_terminal():
            continue
        for seat in range(game.num_players):
            other = state.determinize(seat, rng)
            if other.zones() != state.zones():
                resampled += 1
            expected = encode_observation(state.observe(seat), game)
            np.testing.assert_array_equal(encode_observation(other.observe(seat), game), expected)
    assert resampled > 0  # the determinized states did differ in hidden cards


def test_after_the_deal_the_own_hand_is_in_the_hand_block_only() -> None:
    game = warcards.load_game("naval-war", players=4)
    state = _sample_states(game, 0, 1)[0]
    seat = 2
    hand = state.observe(seat)["hand"]
    assert hand
    blocks = Blocks(game, encode_observation(state.observe(seat), game))
    for card in hand:
        assert blocks.card(card)[HAND] == 1.0 and blocks.card(card).sum() == 1.0
    assert blocks.cards[:, HAND].sum() == len(hand)
    others = [card for j in range(4) if j != seat for card in state.observe(j)["hand"]]
    for card in others:
        assert blocks.card(card)[UNSEEN] == 1.0 and blocks.card(card).sum() == 1.0
    # the next seat's hand appears in its own hand block, not in seat 2's view
    next_blocks = Blocks(game, encode_observation(state.observe(3), game))
    assert all(next_blocks.card(card)[HAND] == 0.0 for card in hand)


def test_a_set_up_position_encodes_as_documented() -> None:
    game = warcards.load_game("naval-war", players=3, target=20)
    state = game.state_from_setup({
        "zones": {
            "hand:0": ["SALVO16x4-1"],
            "hand:1": ["SALVO11x1-1", "SMOKE-1"],
            "hand:2": ["REPAIR-1"],
            "fleet:0": ["NELSON"],
            "fleet:1": ["BISMARCK", "HOOD"],
            "fleet:2": ["YAMATO"],
            "on:BISMARCK": ["SALVO14x2-1"],
            "mines:1": ["MINE1-1"],
            "discard": ["SMOKE-2"],
            "deep6:2": ["IOWA"],
        },
        "position": {"phase": "play", "turn": 1, "dealer": 0, "scores": [5, 0, -3]},
    })
    t = game.table  # type: ignore[attr-defined]
    seat = 1
    blocks = Blocks(game, encode_observation(state.observe(seat), game))
    assert blocks.card("SALVO11x1-1")[HAND] == 1.0 and blocks.card("SMOKE-1")[HAND] == 1.0
    assert blocks.card("SALVO16x4-1")[UNSEEN] == 1.0
    assert blocks.card("SALVO14x2-1")[Blocks.seat_slot(0, ON_SHIP)] == 1.0
    assert blocks.card("MINE1-1")[Blocks.seat_slot(0, MINES)] == 1.0
    assert blocks.card("SMOKE-2")[DISCARD] == 1.0
    assert blocks.ship("BISMARCK")[FLEET] == 1.0 and blocks.ship("HOOD")[FLEET] == 1.0
    assert blocks.ship("YAMATO")[FLEET + SHIP_SLOTS_PER_SEAT * 1] == 1.0  # seat 2 is the next seat
    assert blocks.ship("NELSON")[FLEET + SHIP_SLOTS_PER_SEAT * 2] == 1.0  # seat 0 is two seats on
    assert blocks.ship("IOWA")[DEEP + SHIP_SLOTS_PER_SEAT * 1] == 1.0
    assert blocks.ship("MUSASHI")[HARBOR] == 1.0
    bismarck = t.ship_ids.index("BISMARCK")
    assert blocks.details[bismarck, 0] == pytest.approx((2 + 1) / t.ship_hits[bismarck])  # salvo 2 + mine 1
    iowa_points = t.ship_hits[t.ship_ids.index("IOWA")] / 20
    own, following, before = blocks.seats
    assert own[0] == pytest.approx(2 / 10) and own[1] == pytest.approx(2 / 16) and own[3] == pytest.approx(0.1)
    assert following[5] == pytest.approx(iowa_points) and following[6] == pytest.approx(-3 / 20)
    assert before[6] == pytest.approx(5 / 20) and own[6] == 0.0
    assert own[10] == 1.0 and own[11] == 1.0 and before[12] == 1.0  # turn, to act, dealer
    assert own[SEAT_SLOTS_BASE + 1] == 1.0  # the minefield before seat 1 was laid by seat 2 (by default)
    assert blocks.game[6] == 1.0 and blocks.game[:16].sum() == 1.0  # phase "play"


def test_the_adapters_use_this_encoder() -> None:
    game = warcards.load_game("naval-war", players=5)
    encoder = encoder_for(game)
    assert encoder.version == OBSERVATION_VERSION == 1
    assert encoder.shape == observation_shape(game) == (108 * 35 + 54 * 21 + 5 * 21 + 32,)
    assert (encoder.low, encoder.high) == OBSERVATION_BOUNDS
    state = _sample_states(game, 4, 1)[0]
    np.testing.assert_array_equal(encoder.encode(state.observe(0)), encode_observation(state.observe(0), game))
