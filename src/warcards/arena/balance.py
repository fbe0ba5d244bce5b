"""Balance reports: equal bots in every seat, and what the results say about the game.

For each configuration (variant, player count) a tournament of one bot in every seat is played (or read
from its JSONL file) and every game is replayed to see who acted first, how long it lasted and which
actions each seat took. The report (Markdown with PNG plots, numbers beside every plot) covers: win rate
per seat/side with 95% Wilson intervals against the even share, first-player advantage, game length, a
per-configuration comparison, and action impact — for each action label (a card played, in the game's
notation) the win rate of the seats that took it, against those seats' overall win rate.
"""

from __future__ import annotations

import itertools
import statistics
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from warcards.arena.stats import Rate, seat_rates, wilson
from warcards.arena.tournament import (
    Backend,
    ProgressCallback,
    TournamentRecord,
    TournamentSpec,
    load_recorded,
    read_records,
    run_tournament,
)
from warcards.engine.api import CHANCE, Game
from warcards.engine.options import PATH_QUOTE
from warcards.engine.registry import load_game, option_specs
from warcards.engine.text import quote
from warcards.match import RecordError, replay
from warcards.simulate import win_shares


@dataclass(frozen=True)
class Impact:
    """How often seats that took an action won, against the same seats' usual win rate."""

    label: str
    trials: int
    rate: float
    low: float
    high: float
    baseline: float

    @property
    def delta(self) -> float:
        return self.rate - self.baseline


@dataclass
class ConfigReport:
    """The analysis of one configuration's games."""

    label: str
    options: dict[str, Any]
    seat_names: list[str]
    games: int
    seats: list[Rate]
    first: Rate
    lengths: list[int]
    first_seats: list[int] = field(default_factory=list)
    impacts: list[Impact] = field(default_factory=list)
    agent: str = ""


def configurations(
    game_id: str,
    variants: Sequence[str] = (),
    players: Sequence[int] = (),
    extra: Mapping[str, Any] | None = None,
    vary: Mapping[str, Sequence[str]] | None = None,
) -> list[dict[str, Any]]:
    """Option sets to compare: the given variants (default: every variant the game declares) times the
    given player counts (default: the game's default) times every combination of the `vary` options'
    values, each with the `extra` options."""
    specs = {spec.name: spec for spec in option_specs(game_id)}
    if not variants and "variant" in specs and specs["variant"].allowed is not None:
        variants = [str(v) for v in specs["variant"].allowed]
    configs = []
    variant_choices: Sequence[str | None] = variants or [None]
    player_choices: Sequence[int | None] = players or [None]
    varied = list((vary or {}).items())
    for variant, count, *values in itertools.product(
        variant_choices, player_choices, *(v for _, v in varied)
    ):
        options = dict(extra or {})
        if variant is not None:
            options["variant"] = variant
        if count is not None:
            options["players"] = count
        options.update({name: value for (name, _), value in zip(varied, values, strict=True)})
        configs.append(options)
    return configs


def label_of(game: Game) -> str:
    """A short name for a configuration: its variant, player count and every option not at its default."""
    defaults = {spec.name: spec.default for spec in option_specs(game.game_id)}
    options = game.options
    parts = [str(options["variant"])] if "variant" in options else []
    parts.append(f"{game.num_players}p")
    parts += [
        f"{k}={v}"
        for k, v in sorted(options.items())
        if k not in ("variant", "players") and k in defaults and v != defaults[k]
    ]
    return " ".join(parts)


def card_label(text: str, card_ids: set[str]) -> str:
    """The part of an action's notation that names the card played: the words up to the first card id
    and the card's capitalised name after it ("activate X01 Rubble target A31 Competition" ->
    "activate X01 Rubble"); an action naming no card keeps its whole text ("pass")."""
    words = text.split()
    for index, word in enumerate(words):
        if word in card_ids:
            end = index + 1
            while end < len(words) and words[end][:1].isupper() and words[end] not in card_ids:
                end += 1
            return " ".join(words[:end])
    return text


def analyse(
    game: Game,
    records: Sequence[TournamentRecord],
    label: str,
    confidence: float = 0.95,
    min_share: float = 0.05,
) -> ConfigReport:
    """Replay the records: seat win rates, first player, lengths (player actions) and card impact.

    Actions are grouped by the card they play (`card_label`); a label counts once per seat per game;
    labels taken in fewer than `min_share` of seat-games are left out (too few to say anything)."""
    names = game.seat_names()
    n = game.num_players
    seats = seat_rates(records, names, confidence)
    seat_rate = [r.rate for r in seats]
    card_ids = {card for cards in game.new_initial_state().zones().values() for card in cards}
    first_wins = 0.0
    first_seats = [0] * n
    lengths: list[int] = []
    taken: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for record in records:
        shares = win_shares(record.returns)
        state = game.new_initial_state()
        first = -1
        moves = 0
        seen: set[tuple[int, str]] = set()
        for action in record.actions:
            player = state.current_player()
            if player != CHANCE:
                moves += 1
                if first < 0:
                    first = player
                seen.add((player, card_label(state.action_to_string(action), card_ids)))
            state.apply_action(action)
        lengths.append(moves)
        if first >= 0:
            first_wins += shares[first]
            first_seats[first] += 1
        for seat, text in seen:
            taken[text].append((seat, shares[seat]))
    low, high = wilson(first_wins, len(records), confidence)
    first_rate = Rate("first player", len(records), first_wins, low, high, 1.0 / n)
    impacts = []
    floor = max(5, int(min_share * len(records) * n))
    for text, entries in taken.items():
        if len(entries) < floor:
            continue
        wins = sum(share for _, share in entries)
        lo, hi = wilson(wins, len(entries), confidence)
        baseline = sum(seat_rate[seat] for seat, _ in entries) / len(entries)
        impacts.append(Impact(text, len(entries), wins / len(entries), lo, hi, baseline))
    impacts.sort(key=lambda i: -abs(i.delta))
    bots = {name for record in records for name in record.agents}
    return ConfigReport(
        label,
        dict(game.options),
        names,
        len(records),
        seats,
        first_rate,
        lengths,
        first_seats,
        impacts,
        next(iter(bots)) if len(bots) == 1 else "",
    )


def run_balance(
    game_id: str,
    configs: Sequence[Mapping[str, Any]],
    agent: str,
    games: int,
    seed: int,
    results_dir: Path,
    backend: Backend | None = None,
    progress: Callable[[str], ProgressCallback] | None = None,
) -> list[ConfigReport]:
    """Play (resuming from `results_dir/<label>.jsonl`) and analyse each configuration."""
    results_dir.mkdir(parents=True, exist_ok=True)
    reports = []
    for options in configs:
        game = load_game(game_id, **options)
        label = label_of(game)
        spec = TournamentSpec(game_id, (agent,), games, seed, dict(options))
        path = results_dir / (label.replace(" ", "_").replace("=", "-") + ".jsonl")
        result = run_tournament(spec, backend, path, progress(label) if progress else None)
        reports.append(analyse(game, result.records, label))
    return reports


def reports_from_files(
    files: Sequence[Path],
    game_id: str | None = None,
    configs: Sequence[Mapping[str, Any]] | None = None,
    agent: str | None = None,
) -> list[ConfigReport]:
    """Analyse tournaments already played: each JSONL file is one configuration.

    Every record is checked before it counts (`RecordError` otherwise, naming the file and game): it is
    of `game_id` (when given), of the same options as the file's first record and, when `configs` is given
    (the configurations the command line asked for), of one of them; the same bot sits in every seat, the
    same in every file (`agent`, when given); and it replays exactly from its seed."""
    reports = []
    wanted = None
    if game_id is not None and configs:
        wanted = [load_game(game_id, **options).options for options in configs]
    bot = agent
    for path in files:
        name = quote(str(path), PATH_QUOTE)
        records = read_records(path)
        if not records:
            raise RecordError(f"{name} holds no tournament records")
        first = records[0]
        if game_id is not None and first.game != game_id:
            raise RecordError(f"{name} holds records of {quote(first.game)}, not of {game_id}")
        game = load_recorded(first.game, first.options)
        if wanted is not None and game.options not in wanted:
            raise RecordError(
                f"{name} holds games with options {quote(first.options, 160)}, not one of the configurations "
                f"asked for ({quote(wanted, 160)}); drop --variant/--players/--option/--vary to report it"
            )
        for record in records:
            where = f"{name} game {record.index}"
            if record.game != first.game or record.options != first.options:
                raise RecordError(
                    f"{where} is of another configuration ({quote(record.game)} {quote(record.options, 120)}) "
                    f"than the file's first game: a balance file holds one configuration"
                )
            seated = set(record.agents)
            if len(seated) != 1 or (bot is not None and seated != {bot}):
                expected = f"{bot} in every seat" if bot is not None else "one bot in every seat"
                raise RecordError(f"{where} seats {quote(record.agents, 80)}; a balance report needs {expected}")
            bot = record.agents[0]
            try:
                replay(record)
            except RecordError as error:
                raise RecordError(f"{where}: {error}") from None
        reports.append(analyse(game, records, label_of(game)))
    return reports


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _interval(rate: Rate) -> str:
    return f"{_pct(rate.rate)} [{_pct(rate.low)}, {_pct(rate.high)}]"


def _err(value: float, low: float, high: float) -> list[list[float]]:
    """Error-bar lengths below and above (never negative from rounding)."""
    return [[max(0.0, value - low)], [max(0.0, high - value)]]


def _plots(reports: Sequence[ConfigReport], out_dir: Path, top: int) -> dict[str, str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    files: dict[str, str] = {}

    fig, ax = plt.subplots(figsize=(7, 3.2), dpi=80)
    x = 0.0
    ticks, labels = [], []
    for report in reports:
        for rate in report.seats:
            ax.bar(x, rate.rate, width=0.8, color="tab:blue")
            ax.errorbar(x, rate.rate, yerr=_err(rate.rate, rate.low, rate.high), color="k", capsize=3)
            ticks.append(x)
            labels.append(f"{report.label}\n{rate.label}")
            x += 1
        even = report.seats[0].even
        ax.hlines(even, x - len(report.seats) - 0.4, x - 0.6, colors="tab:red", linestyles="dashed")
        x += 0.6
    ax.set_xticks(ticks, labels, fontsize=7)
    ax.set_ylabel("win rate")
    ax.set_title("Win rate per seat (95% Wilson interval; dashed: even share)", fontsize=9)
    fig.tight_layout()
    files["seats"] = "seat-win-rates.png"
    fig.savefig(out_dir / files["seats"])
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6, 2.8), dpi=80)
    for i, report in enumerate(reports):
        rate = report.first
        ax.bar(i, rate.rate, color="tab:green")
        ax.errorbar(i, rate.rate, yerr=_err(rate.rate, rate.low, rate.high), color="k", capsize=3)
        ax.hlines(rate.even, i - 0.4, i + 0.4, colors="tab:red", linestyles="dashed")
    ax.set_xticks(range(len(reports)), [r.label for r in reports], fontsize=8)
    ax.set_ylabel("first player's win rate")
    ax.set_title("First-player advantage (dashed: even share)", fontsize=9)
    fig.tight_layout()
    files["first"] = "first-player.png"
    fig.savefig(out_dir / files["first"])
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6, 2.8), dpi=80)
    for report in reports:
        ax.hist(report.lengths, bins=30, histtype="step", label=report.label)
    ax.set_xlabel("player actions per game")
    ax.set_ylabel("games")
    ax.legend(fontsize=7)
    ax.set_title("Game length", fontsize=9)
    fig.tight_layout()
    files["lengths"] = "game-length.png"
    fig.savefig(out_dir / files["lengths"])
    plt.close(fig)

    for report in reports:
        top_impacts = report.impacts[:top]
        if not top_impacts:
            continue
        fig, ax = plt.subplots(figsize=(6, 0.25 * len(top_impacts) + 1.0), dpi=80)
        ys = list(range(len(top_impacts)))[::-1]
        deltas = [i.delta for i in top_impacts]
        ax.barh(ys, deltas, color=["tab:blue" if d >= 0 else "tab:orange" for d in deltas])
        ax.errorbar(
            deltas,
            ys,
            xerr=[[max(0.0, i.rate - i.low) for i in top_impacts], [max(0.0, i.high - i.rate) for i in top_impacts]],
            fmt="none",
            color="k",
            capsize=2,
        )
        ax.set_yticks(ys, [i.label[:40] for i in top_impacts], fontsize=7)
        ax.axvline(0, color="k", linewidth=0.5)
        ax.set_xlabel("win rate when played − seat's usual win rate")
        ax.set_title(f"Card impact: {report.label}", fontsize=9)
        fig.tight_layout()
        name = "impact-" + report.label.replace(" ", "-").replace("=", "-") + ".png"
        fig.savefig(out_dir / name)
        plt.close(fig)
        files[f"impact:{report.label}"] = name
    return files


def _first_seats(report: ConfigReport) -> str:
    total = sum(report.first_seats) or 1
    return ", ".join(
        f"{report.seat_names[seat]} {_pct(count / total)}"
        for seat, count in enumerate(report.first_seats)
        if count
    )


def _impact_verdict(impact: Impact) -> str:
    if impact.low > impact.baseline:
        return "higher"
    if impact.high < impact.baseline:
        return "lower"
    return "-"


def write_report(
    game_id: str, reports: Sequence[ConfigReport], out_dir: Path, command: str, agent: str, top: int = 12
) -> Path:
    """Write `out_dir/README.md` and its plots; returns the report's path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    files = _plots(reports, out_dir, top)
    lines = [
        f"# Balance report: {game_id}",
        "",
        f"Generated by `{command}`: the `{agent}` bot in every seat, so any seat's edge is the game's "
        "(or the bot's way of playing that seat). Intervals are 95% Wilson intervals; a seat is "
        "*above*/*below* when its interval excludes the even share.",
        "",
        "## Summary",
        "",
    ]
    for report in reports:
        off = [r for r in report.seats if r.significant != "even"]
        if off:
            said = "; ".join(
                f"{r.label} {_interval(r)} is {r.significant} the even {_pct(r.even)}" for r in off
            )
        else:
            said = f"no seat's win rate differs significantly from the even {_pct(report.seats[0].even)}"
        first = report.first
        lengths = report.lengths
        lines.append(
            f"- **{report.label}** ({report.games} games): {said}. First to act: {_first_seats(report)}; "
            f"the first player wins {_interval(first)} ({first.significant}). "
            f"Median length {statistics.median(lengths):.0f} player actions."
        )
    lines += ["", "## Win rate per seat", "", f"![win rate per seat]({files['seats']})", ""]
    lines += [
        "| configuration | seat | games | win rate | 95% interval | even share | verdict |",
        "|---|---|---|---|---|---|---|",
    ]
    for report in reports:
        for r in report.seats:
            lines.append(
                f"| {report.label} | {r.label} | {r.trials} | {_pct(r.rate)} | [{_pct(r.low)}, {_pct(r.high)}] "
                f"| {_pct(r.even)} | {r.significant} |"
            )
    lines += ["", "## First-player advantage", "", f"![first player]({files['first']})", ""]
    lines += [
        "| configuration | games | first player's win rate | 95% interval | even share | verdict |",
        "|---|---|---|---|---|---|",
    ]
    for report in reports:
        r = report.first
        lines.append(
            f"| {report.label} | {r.trials} | {_pct(r.rate)} | [{_pct(r.low)}, {_pct(r.high)}] | {_pct(r.even)} "
            f"| {r.significant} |"
        )
    lines += ["", "## Game length (player actions)", "", f"![game length]({files['lengths']})", ""]
    lines += ["| configuration | mean | median | 10th pct | 90th pct | max |", "|---|---|---|---|---|---|"]
    for report in reports:
        ordered = sorted(report.lengths)
        decile = ordered[len(ordered) // 10]
        ninth = ordered[min(len(ordered) - 1, (9 * len(ordered)) // 10)]
        lines.append(
            f"| {report.label} | {statistics.fmean(ordered):.1f} | {statistics.median(ordered):.0f} | {decile} "
            f"| {ninth} | {ordered[-1]} |"
        )
    lines += [
        "",
        "## Card impact",
        "",
        "For each card played (the action's notation up to the card's name, so `activate X01 Rubble` and "
        "`deploy X01 Rubble` count apart), the win rate of the seats that played it at least once in a game, "
        "against those seats' usual win rate; the largest swings first. *Clear of usual* says whether the "
        "interval excludes the usual rate. Playing a card is not causing the win: strong hands both hold "
        "strong cards and win, so read these as associations.",
    ]
    for report in reports:
        lines += ["", f"### {report.label}", ""]
        name = files.get(f"impact:{report.label}")
        if name is None:
            lines.append("No card was played often enough to measure.")
            continue
        lines += [f"![card impact]({name})", ""]
        lines += [
            "| card played | seat-games | win rate | 95% interval | usual | swing | clear of usual |",
            "|---|---|---|---|---|---|---|",
        ]
        for i in report.impacts[:top]:
            lines.append(
                f"| {i.label} | {i.trials} | {_pct(i.rate)} | [{_pct(i.low)}, {_pct(i.high)}] | {_pct(i.baseline)} "
                f"| {100 * i.delta:+.1f} pts | {_impact_verdict(i)} |"
            )
    path = out_dir / "README.md"
    path.write_text("\n".join(lines) + "\n")
    return path
