"""Time the card-file edge (issue 21, section 4): loading the shipped decks, loading the largest Cards of War
deck with a pair list filling 1 MiB, refusing a 10 MiB file and a file of very long dotted keys.

    python3 scripts/card_file_times.py

Each figure is the best of 5 runs, in milliseconds. A deck is cached by its content, so every run writes the
file afresh with a different comment line to time a real load.
"""

from __future__ import annotations

import tempfile
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import warcards
from warcards.engine.cards import MAX_CARD_FILE_BYTES
from warcards.engine.errors import WarcardsError
from warcards.engine.registry import game_module

RUNS = 5


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    return str(value)


def toml_document(data: dict[str, Any]) -> str:
    """A TOML text for a card file: top-level tables and arrays of tables of scalars and lists."""
    out: list[str] = []
    for key, value in data.items():
        if isinstance(value, dict):
            out.append(f"[{key}]")
            out.extend(f"{k} = {toml_value(v)}" for k, v in value.items())
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            for row in value:
                out.append(f"[[{key}]]")
                out.extend(f"{k} = {toml_value(v)}" for k, v in row.items())
        else:
            out.append(f"{key} = {toml_value(value)}")
    return "\n".join(out) + "\n"


def best_ms(game_id: str, folder: Path, text: bytes) -> tuple[float, str]:
    """Best time over RUNS to load (or be refused) `text` as `game_id`'s card file, and the outcome."""
    best = float("inf")
    outcome = ""
    for run in range(RUNS):
        path = folder / f"deck-{game_id}-{run}-{time.perf_counter_ns()}.toml"
        path.write_bytes(f"# run {run} {time.perf_counter_ns()}\n".encode() + text)
        start = time.perf_counter()
        try:
            warcards.load_game(game_id, cards=str(path))
            outcome = "loaded"
        except WarcardsError as error:
            outcome = f"refused: {str(error)[:60]}"
        best = min(best, time.perf_counter() - start)
    return best * 1000, outcome


def main() -> None:
    rows: list[tuple[str, str, Callable[[Path], tuple[float, str]]]] = []
    for game_id in ("med-sirocco", "naval-war", "cards-of-war"):
        shipped = Path(str(game_module(game_id).__file__)).with_name("cards.toml").read_bytes()
        rows.append((game_id, "the shipped deck", lambda folder, g=game_id, t=shipped: best_ms(g, folder, t)))
    cow = tomllib.loads(Path(str(game_module("cards-of-war").__file__)).with_name("cards.toml").read_text())
    base = cow["card"]
    cow["card"] = [dict(base[i % 52], id=f"K{i}", name=f"Card {i}") for i in range(500)]
    cow["pair"] = [{"cards": [f"Card {i}", f"Card {i + 52}"]} for i in range(0, 448, 8)] * 400
    largest = toml_document(cow).encode()
    rows.append(("cards-of-war", f"500 cards, pairs filling {len(largest) // 1024} KiB",
                 lambda folder: best_ms("cards-of-war", folder, largest)))
    huge = b"[[card]]\n" + b"#" * (10 * MAX_CARD_FILE_BYTES)
    rows.append(("cards-of-war", "a 10 MiB file", lambda folder: best_ms("cards-of-war", folder, huge)))
    dots = ("a." * 50_000 + "b = 1\n").encode()
    rows.append(("naval-war", "a dotted key of 50,000 parts", lambda folder: best_ms("naval-war", folder, dots)))
    with tempfile.TemporaryDirectory() as folder:
        print(f"{'game':<14} {'file':<34} {'best ms':>9}  outcome")
        for game_id, label, measure in rows:
            milliseconds, outcome = measure(Path(folder))
            print(f"{game_id:<14} {label:<34} {milliseconds:>9.2f}  {outcome}")


if __name__ == "__main__":
    main()
