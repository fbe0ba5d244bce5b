"""`determinize` samples from what the seat knows only: two states the seat cannot tell apart give the same
sample for the same rng (R8's RECON floors, a declared joint deployment and a REINFORCE card included)."""

from __future__ import annotations

import random
from typing import Any

from warcards.engine.agents import SeatView
from warcards.engine.api import CHANCE, sample_chance
from warcards.games.cards_of_war.codes import PHASE_NAMES, Phase
from warcards.games.cards_of_war.heuristic import heuristic_agent
from warcards.games.cards_of_war.state import CardsOfWarState

from .helpers import game

CONFIGS: list[dict[str, Any]] = [
    {"length": "short"},
    {"length": "normal"},
    {"length": "long"},
    {"length": "normal", "joint_deployment": True, "alternative_reinforce": True},
    {"length": "long", "decks": 2, "theatres_of_war": True, "strategic_exhaustion": True},
    {"length": "normal", "decks": 2, "joint_deployment": True, "tactical_advantage": True},
]
PHASES = {Phase.DEPLOY, Phase.JOINT_SECOND, Phase.REINFORCE_DRAW, Phase.REINFORCE, Phase.REFILL, Phase.DEAL}


def positions(options: dict[str, Any], games: int, seed: int, every: int) -> list[CardsOfWarState]:
    """Positions of seeded games (heuristic bots, a quarter of their moves random), one per `every` actions."""
    g = game(**options)
    rng = random.Random(seed)
    out: list[CardsOfWarState] = []
    for _ in range(games):
        agents = [heuristic_agent(g, seat, rng.randrange(1 << 30)) for seat in (0, 1)]
        state = g.new_initial_state()
        assert isinstance(state, CardsOfWarState)
        step = 0
        while not state.is_terminal():
            if step % every == 0 or state.phase in (Phase.JOINT_SECOND, Phase.REINFORCE):
                copied = state.clone()
                assert isinstance(copied, CardsOfWarState)
                out.append(copied)
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
            elif rng.random() < 0.25:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            else:
                state.apply_action(agents[player].step(SeatView(state, player)))
            step += 1
    return out


def test_determinize_depends_only_on_what_the_seat_knows() -> None:
    """B = A.determinize(seat) is a true state the seat cannot tell from A; both must then give the same
    sample. States compare by fingerprint (history, zones, position, REINFORCE card, RECON answers and
    floors): B carries A's history, so nothing irrelevant to play can make equal samples differ."""
    checked = 0
    phases: set[int] = set()
    differed = 0
    for index, options in enumerate(CONFIGS):
        for a in positions(options, games=3, seed=index, every=9):
            for seat in (0, 1):
                x = checked
                b = a.determinize(seat, random.Random(x))
                assert a.observe(seat) == b.observe(seat)
                differed += b.hands[1 - seat] != a.hands[1 - seat]
                for k in (x, x + 1):
                    assert a.determinize(seat, random.Random(k)) == b.determinize(seat, random.Random(k)), (
                        options, PHASE_NAMES[a.phase], seat, k
                    )
                checked += 1
                phases.add(a.phase)
    assert phases >= PHASES  # dealing, deploying, a joint deployment, REINFORCE and refills were all met
    assert differed > checked // 2  # B is mostly a different true state from A, not a copy
