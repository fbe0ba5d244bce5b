"""The typical length of each game the lobby states: the median number of moves one seat makes in a whole
game between heuristic bots (chance steps not counted), over a few seeds per game and default options.

    PYTHONPATH=src python3 scripts/typical_length.py [GAMES_PER_GAME]
"""

from __future__ import annotations

import statistics
import sys

from warcards.engine.api import CHANCE
from warcards.engine.registry import games, load_game
from warcards.match import play_match


def seat_moves(game_id: str, seed: int) -> tuple[int, int]:
    """(the moves seat 0 made, the moves every seat made) in one heuristic game with `seed`."""
    game = load_game(game_id)
    record = play_match(game, ["heuristic"] * game.num_players, seed)
    state = game.new_initial_state()
    own = every = 0
    for action in record.actions:
        player = state.current_player()
        if player != CHANCE:
            every += 1
            own += player == 0
        state.apply_action(action)
    return own, every


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    for game_id in games():
        runs = [seat_moves(game_id, seed) for seed in range(count)]
        print(f"{game_id}: seat 0 moves median {statistics.median(r[0] for r in runs)}, "
              f"all seats median {statistics.median(r[1] for r in runs)} ({count} games)", flush=True)


if __name__ == "__main__":
    main()
