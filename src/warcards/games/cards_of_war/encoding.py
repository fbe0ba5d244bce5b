"""The RL observation vector of Cards of War (version 1): a fixed layout read from one seat's view only.

`encode_observation(view, game)` turns `state.observe(seat)` into a float32 vector of
`observation_shape(game) == (16 * N + 86,)` entries, every one in [0, 1]. Everything is relative to the
observing seat ("own" = the seat of the view, "opponent" = the other seat).

N is the number of physical cards: n (52 with the stand-in deck) with one deck, 2n in the 2-deck version.
Card index `k` (0 ≤ k < N) names a card by its position in the deck file (its *kind*); in the 2-deck version
indices 0 … n-1 are the observer's own deck and n … 2n-1 the opponent's (so `G01/1` is index 12 for seat 1
and index 12 + n for seat 0), which makes the layout the same from both seats. Sizes below are for the
stand-in deck: 918 entries with one deck (N = 52), 1,750 with two (N = 104).

Card planes, plane p at offset p·N, entry p·N + k for card k. Planes 0-11 say where the card is, exactly one of
them set per card:

| plane | offset | the card is |
|---|---|---|
| 0 | 0 | in the own hand |
| 1, 2, 3 | N, 2N, 3N | on the own pile of the left / centre / right battle (a won battle's face-down pile too) |
| 4, 5, 6 | 4N, 5N, 6N | on the opponent's pile of the left / centre / right battle |
| 7 | 7N | in a discard pile |
| 8, 9 | 8N, 9N | the own / the opponent's card of the first-player draw |
| 10 | 10N | set aside by a tied first-player draw |
| 11 | 11N | unseen: in a draw pile or in the opponent's hand |

Planes 12-15 mark cards (besides their place):

| plane | offset | the card is |
|---|---|---|
| 12 | 12N | the top card of a battle pile (the one a KILL takes) |
| 13 | 13N | the top card of a discard pile (deployable by Alternative Reinforce) |
| 14 | 14N | the card the observer drew for its current REINFORCE deployment (`reinforce_card`) |
| 15 | 15N | the first card of the joint deployment under way (`joint_first`) |

Scalars from S = 16·N (counts are divided by a fixed maximum and clipped to 1):

| offset | meaning |
|---|---|
| S+0 … S+7 | phase one-hot: first_draw, deal, deploy, joint, reinforce_draw, reinforce, refill, over |
| S+8 … S+11 | to move: own seat, opponent, chance, terminal |
| S+12, S+13 | the round's `player` is the own seat; the round's `first_player` is the own seat |
| S+14 | round / R, with R the rounds a game can last (short 1, normal 3, long 99) |
| S+15, S+16 | rounds won: own / R, opponent / R |
| S+17 | round lead: (clip(own − opponent rounds won, −3, 3) + 3) / 6 |
| S+18 … S+20 | the previous round's result: own win, opponent win, drawn (all 0 in round 1) |
| S+21, S+22 | hand counts / 10: own, opponent |
| S+23, S+24 | hand limits / 9: own, opponent |
| S+25, S+26 | draw pile sizes / n: the pile the own seat draws from, the opponent's (one deck: both the common pile) |
| S+27, S+28 | discard pile sizes / n: own deck's, opponent's deck's (one deck: both the common pile) |
| S+29 + 11·b … | battle b (left 0, centre 1, right 2), 11 entries each: |
| +0 … +3 | its state: open, won by the own seat, won by the opponent, void |
| +4 … +8 | its theatre (Theatres of War): none, air, sea, ground, intel |
| +9, +10 | scoring totals / 15: own, opponent |
| S+62 … S+67 | the latest RECON answer about the opponent's hand: given, given this round, air, sea, ground, intel counts / 10 |
| S+68 … S+73 | the latest RECON answer about the own hand, in the same form |
| S+74 | REINFORCE deployments still owed / 4 |
| S+75, S+76 | the game's winner: own seat, opponent |
| S+77 … S+85 | options: alternative_reinforce, theatres_of_war, tactical_advantage, strategic_exhaustion, joint_deployment, 2 decks, length short, normal, long |

Only the view is read (the game gives the card ids and the options, which the view holds too), so two states
the seat cannot tell apart encode the same.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from warcards.engine.api import Game
from warcards.games.cards_of_war.cards import THEATRES
from warcards.games.cards_of_war.codes import PHASE_NAMES
from warcards.games.cards_of_war.params import (
    BATTLE_TARGET,
    LENGTHS,
    LONG_GAME_LEAD,
    LONG_GAME_ROUND_CAP,
    NORMAL_GAME_ROUNDS,
    TACTICAL_HAND_SIZE,
)

if TYPE_CHECKING:
    from warcards.games.cards_of_war.game import CardsOfWarGame

OBSERVATION_VERSION = 1
OBSERVATION_BOUNDS = (0.0, 1.0)

PLANES = 16
HAND, OWN_BATTLE, OPP_BATTLE, DISCARD, OWN_FIRST, OPP_FIRST, TIED, UNSEEN = 0, 1, 4, 7, 8, 9, 10, 11
BATTLE_TOP, DISCARD_TOP, REINFORCE, JOINT = 12, 13, 14, 15

PHASE, TO_MOVE, PLAYER, FIRST, ROUND, ROUNDS_WON, LEAD, LAST_RESULT = 0, 8, 12, 13, 14, 15, 17, 18
HAND_COUNTS, HAND_LIMITS, DRAW, DISCARDS, BATTLES, BATTLE_SIZE = 21, 23, 25, 27, 29, 11
RECON_OPP, RECON_OWN, PENDING, WINNER, OPTIONS = 62, 68, 74, 75, 77
SCALARS = 86

HAND_SCALE = 10.0  # hands hold at most 9 cards (Tactical advantage); counts are clipped at 10
PENDING_SCALE = 4.0
ROUNDS = {"short": 1, "normal": NORMAL_GAME_ROUNDS, "long": LONG_GAME_ROUND_CAP}
_PHASES = {name: index for index, name in enumerate(PHASE_NAMES)}
_THEATRES = {name: index for index, name in enumerate(THEATRES)}


class _Layout:
    """What encoding a view of one game needs, computed once: per seat and card plane, the entry of each card
    id; the scalars' offset; a template vector (the unseen plane full, the options set)."""

    def __init__(self, game: CardsOfWarGame) -> None:
        ids = game.card_ids
        n = game.table.n
        cards = len(ids)
        two = cards > n
        self.n = n
        self.cards = cards
        self.scalars = PLANES * cards
        self.size = self.scalars + SCALARS
        self.rounds = float(ROUNDS[game.options["length"]])
        self.planes: tuple[tuple[dict[str, int], ...], ...] = tuple(
            tuple(
                {card: plane * cards + ((k // n - seat) % 2 * n + k % n if two else k) for k, card in enumerate(ids)}
                for plane in range(PLANES)
            )
            for seat in (0, 1)
        )
        template = np.zeros(self.size, dtype=np.float32)
        template[UNSEEN * cards:(UNSEEN + 1) * cards] = 1.0
        options = game.options
        flags = [
            bool(options["alternative_reinforce"]),
            bool(options["theatres_of_war"]),
            bool(options["tactical_advantage"]),
            bool(options["strategic_exhaustion"]),
            bool(options["joint_deployment"]),
            two,
            *(options["length"] == length for length in LENGTHS),
        ]
        template[self.scalars + OPTIONS:self.scalars + OPTIONS + len(flags)] = flags
        self.template = template


_LAYOUTS: weakref.WeakKeyDictionary[Game, _Layout] = weakref.WeakKeyDictionary()


def _layout(game: Game) -> _Layout:
    layout = _LAYOUTS.get(game)
    if layout is None:
        layout = _LAYOUTS[game] = _Layout(cast("CardsOfWarGame", game))
    return layout


def observation_shape(game: Game) -> tuple[int, ...]:
    """(16·N + 86,): N = 52 with one stand-in deck, 104 with two (see the module docstring)."""
    return (_layout(game).size,)


def encode_observation(observation: Mapping[str, Any], game: Game) -> np.ndarray:
    """The float32 vector of one seat's view (`state.observe(seat)`), laid out as in the module docstring."""
    layout = _layout(game)
    seat: int = observation["seat"]
    opp = 1 - seat
    planes = layout.planes[seat]
    unseen = planes[UNSEEN].__getitem__
    vector = layout.template.copy()
    on: list[int] = []
    seen: list[int] = []

    # Card planes: where each visible card is (its unseen entry cleared), and the marks.
    hand = observation["hand"]
    on.extend(map(planes[HAND].__getitem__, hand))
    seen.extend(map(unseen, hand))
    battles = observation["battles"]
    for b, battle in enumerate(battles):
        piles = battle["piles"]
        for pile, plane in ((piles[seat], OWN_BATTLE + b), (piles[opp], OPP_BATTLE + b)):
            if pile:
                on.extend(map(planes[plane].__getitem__, pile))
                seen.extend(map(unseen, pile))
                on.append(planes[BATTLE_TOP][pile[-1]])
    discard = observation["discard"]
    for pile in discard:
        if pile:
            on.extend(map(planes[DISCARD].__getitem__, pile))
            seen.extend(map(unseen, pile))
            on.append(planes[DISCARD_TOP][pile[-1]])
    first_draw = observation["first_draw"]
    for card, plane in ((first_draw[seat], OWN_FIRST), (first_draw[opp], OPP_FIRST)):
        if card is not None:
            on.append(planes[plane][card])
            seen.append(unseen(card))
    tied = observation["first_draw_tied"]
    if tied:
        on.extend(map(planes[TIED].__getitem__, tied))
        seen.extend(map(unseen, tied))
    marked = observation["reinforce_card"]
    if marked is not None:
        on.append(planes[REINFORCE][marked])
    marked = observation["joint_first"]
    if marked is not None:
        on.append(planes[JOINT][marked])

    # One-hot scalars.
    s = layout.scalars
    on.append(s + PHASE + _PHASES[observation["phase"]])
    to_move = observation["to_move"]
    on.append(s + TO_MOVE + (0 if to_move == seat else 1 if to_move == opp else 2 if to_move == "chance" else 3))
    if observation["player"] == seat:
        on.append(s + PLAYER)
    if observation["first_player"] == seat:
        on.append(s + FIRST)
    results = observation["round_results"]
    if results:
        last = results[-1]
        on.append(s + LAST_RESULT + (0 if last == seat else 1 if last == opp else 2))
    index: list[int] = []
    values: list[float] = []
    for b, battle in enumerate(battles):
        base = s + BATTLES + BATTLE_SIZE * b
        winner = battle["winner"]
        on.append(base + (0 if winner is None else 1 if winner == seat else 2 if winner == opp else 3))
        theatre = battle["theatre"]
        on.append(base + 4 + (0 if theatre is None else 1 + _THEATRES[theatre]))
        totals = battle["totals"]
        if totals[seat]:
            index.append(base + 9)
            values.append(totals[seat] / BATTLE_TARGET)
        if totals[opp]:
            index.append(base + 10)
            values.append(totals[opp] / BATTLE_TARGET)
    recon = observation["recon"]
    if recon:
        # The latest RECON answer made by each seat: by the own seat it is about the opponent's hand.
        latest: list[Mapping[str, Any] | None] = [None, None]
        for answer in reversed(recon):
            by = answer["by"]
            if latest[by] is None:
                latest[by] = answer
                if latest[1 - by] is not None:
                    break
        this_round = observation["round"]
        for answer, base in ((latest[seat], s + RECON_OPP), (latest[opp], s + RECON_OWN)):
            if answer is not None:
                on.append(base)
                if answer["round"] == this_round:
                    on.append(base + 1)
                counts = answer["counts"]
                index.extend(range(base + 2, base + 6))
                values.extend(counts[t] / HAND_SCALE for t in THEATRES)
    winner = observation["winner"]
    if winner is not None:
        on.append(s + WINNER + (0 if winner == seat else 1))
    pending = observation["pending_reinforce"]
    if pending:
        index.append(s + PENDING)
        values.append(pending / PENDING_SCALE)
    vector[on] = 1.0
    vector[seen] = 0.0

    # Scaled counts.
    rounds = layout.rounds
    won = observation["rounds_won"]
    counts = observation["hand_counts"]
    limits = observation["hand_limits"]
    n = layout.n
    draw = observation["draw_pile"]
    mine, theirs = (0, 0) if len(draw) == 1 else (seat, opp)
    lead = max(-LONG_GAME_LEAD, min(LONG_GAME_LEAD, won[seat] - won[opp]))
    index.extend(range(s + ROUND, s + LAST_RESULT))
    values += (observation["round"] / rounds, won[seat] / rounds, won[opp] / rounds,
               (lead + LONG_GAME_LEAD) / (2 * LONG_GAME_LEAD))
    index.extend(range(s + HAND_COUNTS, s + BATTLES))
    values += (counts[seat] / HAND_SCALE, counts[opp] / HAND_SCALE,
               limits[seat] / TACTICAL_HAND_SIZE, limits[opp] / TACTICAL_HAND_SIZE,
               draw[mine] / n, draw[theirs] / n, len(discard[mine]) / n, len(discard[theirs]) / n)
    vector[index] = np.minimum(values, 1.0)
    return vector


__all__ = ["OBSERVATION_BOUNDS", "OBSERVATION_VERSION", "encode_observation", "observation_shape"]
