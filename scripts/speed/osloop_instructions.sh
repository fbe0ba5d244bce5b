#!/usr/bin/env bash
# Instructions per action of seeded random playouts through the OpenSpiel-shaped loop researchers use
# (`../shared/bench/speed_ratio.py`'s `playout`: `chance_outcomes()` sampled in Python, then `apply_action`),
# counted by valgrind's callgrind so the figure does not depend on the machine's load:
# `bash scripts/speed/osloop_instructions.sh GAME '{"players": 4}' [GAMES]` (`hearts` as GAME: OpenSpiel's C++
# hearts through the same loop). A run of 1 game and one of GAMES games (default 6); the difference in
# instructions over the difference in actions, so start-up costs drop out.
set -euo pipefail
cd "$(dirname "$0")/../.."
game=$1; options=${2:-"{}"}; games=${3:-6}
bench_dir=$(cd ../shared/bench && pwd)
python=$(python3 -c 'import sys; print(sys.executable)')  # the interpreter itself, not a launcher script
count() {
    local log
    log=$(mktemp)
    actions=$(PYTHONPATH=src:$bench_dir valgrind --tool=callgrind --callgrind-out-file=/dev/null "$python" - "$game" "$options" "$1" 2>"$log" <<'PY'
import json, random, sys
from speed_ratio import playout
game_id, options, games = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
if game_id == "hearts":
    import pyspiel
    game, chance = pyspiel.load_game("hearts"), pyspiel.PlayerId.CHANCE
else:
    import warcards
    game, chance = warcards.load_game(game_id, **options), warcards.CHANCE
print(sum(playout(game.new_initial_state(), random.Random(seed), chance) for seed in range(games)))
PY
)
    echo "$actions $(grep -o 'Collected : [0-9]*' "$log" | awk '{print $3}')"
    rm -f "$log"
}
read -r a1 i1 < <(count 1)
read -r a2 i2 < <(count "$games")
python3 -c "print('$game $options: %d actions, %.1fk instructions/action (OpenSpiel-shaped loop)' % ($a2 - $a1, ($i2 - $i1) / ($a2 - $a1) / 1000))"
