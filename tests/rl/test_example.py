"""The training example (examples/train_race_to_messina.py) runs and learns, shown here on the toy game."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

from tests.rl.rl_cases import TOY
from warcards.rl import gymnasium_env
from warcards.rl.gymnasium_env import WarcardsGymEnv

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_race_to_messina.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_race_to_messina", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


def test_example_policy_learns_to_beat_random_on_the_toy(tmp_path: Path) -> None:
    example = _example()
    game = TOY.load(hand_size=3)

    def make_env(seat: int) -> WarcardsGymEnv:
        return gymnasium_env(game, seat, "random")

    curve = example.train(make_env, 2, 300, 100, 100, learning_rate=0.2, log=lambda message: None)
    assert curve["episodes"] == [0, 100, 200, 300]
    assert curve["win_rate"][-1] > curve["random_win_rate"][0] + 0.05
    assert curve["win_rate"][-1] > curve["win_rate"][0] + 0.05
    out = tmp_path / "curve.png"
    example.plot(curve, out, "toy")
    assert out.read_bytes()[:4] == b"\x89PNG"
    json.dumps(curve)
