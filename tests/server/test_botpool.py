"""The bot process: search decisions run in worker processes from the sample the server sent, so a slow
`hard` table never holds up another table's bots (issue 24, "Bots are clients")."""

from __future__ import annotations

import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from warcards.engine.agents import SampleRng
from warcards.engine.api import CHANCE, sample_chance
from warcards.engine.registry import load_game
from warcards.server.botpool import decide_from_snapshot, decision_seed

from .conftest import ServerProcess
from .test_bot_games import bot_table, watch


def test_a_search_decision_in_a_worker_process_is_the_decision_made_in_process() -> None:
    game = load_game("race-to-messina", variant="invasion")
    state = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(40):
        if state.current_player() == CHANCE:
            state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    while state.current_player() == CHANCE:
        state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
    seat = state.current_player()
    snapshot = state.determinize(seat, SampleRng()).snapshot()
    decision = ("easy", game.game_id, game.options, seat, decision_seed(7, 40), snapshot)
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        remote = pool.submit(decide_from_snapshot, *decision).result(timeout=120)
    assert remote == decide_from_snapshot(*decision)
    assert remote in state.legal_actions()


def test_a_slow_hard_table_does_not_hold_up_another_tables_bots(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'server.sqlite3'}", tmp_path)
    server.start()
    try:
        slow = bot_table(server, "naval-war", "hard", players=6)
        quick = bot_table(server, "cards-of-war", "random", length="short")
        end = watch(server, quick, last_seen=0)[-1]
        assert end["type"] == "end"
        assert server.get_json(f"/tables/{slow}")["status"] == "playing"
    finally:
        server.stop()
