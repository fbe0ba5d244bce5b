#!/usr/bin/env bash
# Instructions per action of a game's seeded random playouts through the bench's driver loop, counted by
# valgrind's callgrind (not installed by the project: `apt-get install valgrind`), so the figure does not
# depend on the machine's load: `bash scripts/speed/instructions.sh GAME '{"players": 4}' [GAMES]`.
# It counts a run of 1 game and a run of GAMES games (default 6) and divides the difference by the
# difference in actions, so start-up costs drop out. OpenSpiel's C++ hearts: pass `hearts` as GAME.
set -euo pipefail
cd "$(dirname "$0")/../.."
game=$1; options=${2:-"{}"}; games=${3:-6}
python=$(python3 -c 'import sys; print(sys.executable)')  # the interpreter itself, not a launcher script
count() {
    local log
    log=$(mktemp)
    actions=$(PYTHONPATH=src valgrind --tool=callgrind --callgrind-out-file=/dev/null "$python" - "$game" "$options" "$1" 2>"$log" <<'PY'
import json, sys
from warcards import bench
from warcards.engine.registry import load_game
game_id, options, games = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
openspiel = game_id == "hearts"
game = bench.hearts_game() if openspiel else load_game(game_id, **options)
print(sum(bench.random_playouts(game, 0.0, seed, openspiel=openspiel)[1] for seed in range(games)))
PY
)
    echo "$actions $(grep -o 'Collected : [0-9]*' "$log" | awk '{print $3}')"
    rm -f "$log"
}
read -r a1 i1 < <(count 1)
read -r a2 i2 < <(count "$games")
python3 -c "print('$game $options: %d actions, %.1fk instructions/action' % ($a2 - $a1, ($i2 - $i1) / ($a2 - $a1) / 1000))"
