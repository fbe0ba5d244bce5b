"""Test tools for game authors (public): the conformance battery, seeded random playouts, scenario files.

- `run_battery(game_id, options, games=..., seed=...)`: the conformance battery on one option set;
- `check_clone_names_every_field(state, reset=..., rows_shared=...)`: a clone sets every slot (the caches `reset`
  names anew) and shares no list, nor a row of one (but `rows_shared`), except the game's tables;
- `random_step`, `random_playout(game, seed)`, `sample_states(game, seed, count)`: the seeded random policy;
- `scenario_files(root)`, `run_scenario(path)`, `failed_scenarios(root)`: rule tests as scenario files;
- `warcards.testing.leaks.LeakScan`: scans a text shown to a seat for card ids and names it may not know.
"""

from __future__ import annotations

from warcards.testing.battery import Tally, check_clone_names_every_field, run_battery
from warcards.testing.playouts import random_playout, random_step, sample_states
from warcards.testing.scenarios import failed_scenarios, run_scenario, scenario_files

__all__ = [
    "Tally",
    "check_clone_names_every_field",
    "failed_scenarios",
    "random_playout",
    "random_step",
    "run_battery",
    "run_scenario",
    "sample_states",
    "scenario_files",
]
