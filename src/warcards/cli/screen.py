"""Fitting a turn of `warcards play` on one terminal screen (80×24 at the least): the board, what happened since
the human's last move (repeated draws and deals folded into one line, the newest lines and the summaries kept
when there are more than fit) and the legal moves (in columns, grouped by what they share, cut to the width,
or the first page of them), with the prompt under them.

Folding only joins lines the seat was shown already: it counts and lists them, it never adds a thing the lines
did not say."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rich.cells import cell_len, set_cell_size

from warcards.engine.api import LogLine

DEALT = re.compile(r"^(?P<stem>.+? (?:is dealt|are dealt|draws|draw)) (?P<card>.+)$")
"""A deal or draw line: who and the verb (the stem), then the card (or "a card" for a hidden one)."""

MOVE_COLUMNS = 4
"""At most this many moves a row."""

GAP = 2
"""Spaces between two columns of moves."""

PARENTHESES = re.compile(r" \([^()]*\)")
"""A label's parenthesised words (the card's name, the target's hits), left out when the moves do not fit."""

MIN_RECENT = 3
"""Rows under the board kept for what happened since the human's move before the moves get the rest."""


def fold_lines(lines: Sequence[LogLine]) -> list[LogLine]:
    """`lines` with each run of consecutive deal and draw lines (chance lines matching `DEALT`) folded into
    one line per who-and-verb, in the order they first came: "player 1 draws a card ×6", "you draw X44 Smoke
    screen, X52 B-Dienst"."""
    folded: list[LogLine] = []
    run: list[LogLine] = []

    def flush() -> None:
        if len(run) < 2:
            folded.extend(run)
        else:
            stems: dict[str, list[str]] = {}
            for line in run:
                match = DEALT.match(line.text)
                assert match is not None
                stems.setdefault(match["stem"], []).append(match["card"])
            for stem, cards in stems.items():
                folded.append(LogLine(f"{stem} {_listed(cards)}", "chance", run[0].actor))
        run.clear()

    for line in lines:
        if line.kind == "chance" and DEALT.match(line.text):
            run.append(line)
            continue
        flush()
        folded.append(line)
    flush()
    return folded


def _listed(cards: list[str]) -> str:
    """The cards of one who-and-verb: "a card ×6" for the same card each time, else the cards in order."""
    if len(set(cards)) == 1 and len(cards) > 1:
        return f"{cards[0]} ×{len(cards)}"
    return ", ".join(cards)


def rows_of(text: str, width: int) -> int:
    """How many terminal rows `text` takes at `width` columns (each of its lines wraps on its own)."""
    return sum(max(1, -(-cell_len(line) // width)) for line in text.split("\n"))


def recent_lines(lines: Sequence[LogLine], rows: int) -> tuple[list[LogLine], int]:
    """At most `rows` of `lines` (one row each, as the caller cuts them to the width): all of them when they
    fit, else the summaries (newest first, up to half the rows) and the newest lines, in their order, with a
    row left for saying how many were left out. Returns the lines kept and how many were left out."""
    if len(lines) <= rows:
        return list(lines), 0
    room = max(rows - 1, 1)
    summaries = [index for index, line in enumerate(lines) if line.kind == "summary"]
    kept = set(summaries[::-1][: room // 2])
    for index in range(len(lines) - 1, -1, -1):
        if len(kept) >= room:
            break
        kept.add(index)
    return [lines[index] for index in sorted(kept)], len(lines) - len(kept)


@dataclass(frozen=True)
class MoveRows:
    """The moves as rows of cells (each cell already cut to its column), and how many moves are not in them
    (a first page)."""

    rows: list[list[str]]
    left_out: int


def move_rows(labels: Sequence[str], width: int, rows: int | None) -> MoveRows:
    """The numbered moves (`labels[i]` is move i+1) laid out within `width` columns and, with `rows`, that many
    rows: each move in full in as many columns as fit, moves differing only in their last word grouped in one
    cell ("deploy A07 (Air Superiority): 1 left 2 centre 3 right"); else the same without the parentheses
    (which repeat what the board shows: "deploy A07: 1 left 2 centre 3 right"); else those with the first two
    words of what a group shares ("deploy X04: 1 americans 14 british"); else those cells cut to two
    columns; else the first page of those (the caller says how many more and how to see them)."""
    bare = [PARENTHESES.sub("", label) for label in labels]
    half = max((width - GAP) // 2, 1)
    limit = width if rows is None else half
    candidates = [_grouped(labels, limit), _grouped(bare, limit), _grouped(bare, limit, stem_words=2)]
    for cells in candidates:
        laid = _columns([cell for cell, _ in cells], width)
        if rows is None or (len(laid) <= rows and all(cell_len((" " * GAP).join(row)) <= width for row in laid)):
            return MoveRows(laid, 0)
    assert rows is not None
    cells = candidates[-1]
    cut = [[_cut(cell, half) for cell, _ in cells[start : start + 2]] for start in range(0, len(cells), 2)]
    if len(cut) <= rows:
        return MoveRows(cut, 0)
    page = max(rows - 1, 1)
    return MoveRows(cut[:page], sum(count for _, count in cells[2 * page :]))


def _grouped(labels: Sequence[str], limit: int, stem_words: int | None = None) -> list[tuple[str, int]]:
    """Cells for `labels` with how many moves each holds: the labels that differ only in the last word before
    their parentheses grouped in one cell, in the order the first of each came ("deploy A07: 1 left 2 centre
    3 right", "deploy X04 Pill Boxes vs: 1 americans 14 british"), the parentheses once when they are the
    same for the group, after each word when not; a new cell of the same stem when one would pass `limit`
    cells (so cutting a cell to `limit` never hides a move). With `stem_words`, a group's cell shows only that
    many words of what its moves share ("deploy X04: 1 americans 14 british")."""
    groups: dict[str, list[tuple[int, str, str]]] = {}
    for number, label in enumerate(labels, start=1):
        head, note = _split_note(label)
        stem, _, word = head.rpartition(" ")
        groups.setdefault(stem or f"\0{number}", []).append((number, word, note))
    cells: list[tuple[str, int]] = []
    for stem, members in groups.items():
        if len(members) == 1:
            number = members[0][0]
            cells.append((f"{number} {labels[number - 1]}", 1))
            continue
        shared = len({note for _, _, note in members}) == 1
        shown = " ".join(stem.split()[:stem_words]) if stem_words else stem
        opening = f"{shown}{members[0][2] if shared else ''}:"
        cell, count = opening, 0
        for number, word, note in members:
            tail = f" {number} {word}{'' if shared else note}"
            if count and cell_len(cell + tail) > limit:
                cells.append((cell, count))
                cell, count = opening, 0
            cell, count = cell + tail, count + 1
        cells.append((cell, count))
    return cells


def _split_note(label: str) -> tuple[str, str]:
    """A label and its closing parentheses ("deploy A07 left", " (left 0 → 4 vs 3)"); the note is "" when
    there are none."""
    match = re.fullmatch(r"(?P<head>.*?)(?P<note> \([^()]*\))?", label)
    assert match is not None
    return match["head"], match["note"] or ""


def _columns(cells: list[str], width: int) -> list[list[str]]:
    per_row = columns_that_fit([cell_len(cell) for cell in cells], width, GAP)
    widths = [max(cell_len(cell) for cell in cells[column::per_row]) for column in range(per_row)]
    rows = []
    for start in range(0, len(cells), per_row):
        row = cells[start : start + per_row]
        rows.append([set_cell_size(cell, widths[column]) if column < len(row) - 1 else cell
                     for column, cell in enumerate(row)])
    return rows


def _cut(text: str, width: int) -> str:
    """`text` in at most `width` cells, cut with "…" when longer, padded when shorter."""
    if cell_len(text) <= width:
        return set_cell_size(text, width)
    return set_cell_size(text, width - 1) + "…"


def columns_that_fit(widths: Sequence[int], width: int, gap: int = GAP) -> int:
    """How many columns (up to `MOVE_COLUMNS`) the items of `widths`, laid out row by row, take within
    `width`, each column as wide as its widest item and `gap` between columns; at least one."""
    for count in range(min(MOVE_COLUMNS, len(widths)), 1, -1):
        column_widths = [max(widths[start::count]) for start in range(count)]
        if sum(column_widths) + gap * (count - 1) <= width:
            return count
    return 1
