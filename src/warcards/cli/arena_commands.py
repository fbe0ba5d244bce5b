"""`warcards tournament` and `warcards balance`: the arena on the command line."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from warcards.bots import agent_names
from warcards.cli.options import game_from_flags, parse_pairs
from warcards.engine.errors import WarcardsError
from warcards.engine.registry import games

console = Console(stderr=True)
out = Console()

GameArg = Annotated[str, typer.Argument(help="Game id (see `warcards games`).")]
SeedOpt = Annotated[int, typer.Option("--seed", help="Master seed: same seed, same games, whatever --jobs.")]
JobsOpt = Annotated[int, typer.Option("--jobs", "-j", help="Worker processes (or Ray CPUs).")]
BackendOpt = Annotated[str, typer.Option("--backend", help="process (a local pool) or ray.")]
AddressOpt = Annotated[
    str | None, typer.Option("--address", help="Ray cluster address (e.g. auto, ray://head:10001).")
]
OptionOpt = Annotated[list[str] | None, typer.Option("--option", "-o", help="Any game option as key=value.")]
ProgressOpt = Annotated[bool, typer.Option("--progress/--no-progress", help="Show a progress bar.")]


def _check_game(game_id: str) -> None:
    if game_id not in games():
        raise typer.BadParameter(f"unknown game {game_id!r}; games are: {', '.join(games())}")


def _agents(text: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    if not names:
        raise typer.BadParameter("--agents needs at least one bot name, e.g. hard,heuristic,random")
    for name in names:
        if name not in agent_names():
            raise typer.BadParameter(f"unknown bot {name!r}; bots are: {', '.join(agent_names())}")
    if len(set(names)) != len(names):
        raise typer.BadParameter(f"--agents lists a bot twice: {text}")
    return names


@contextmanager
def _progress(enabled: bool) -> Iterator[Callable[[str], Callable[[int, int], None]]]:
    """A progress bar factory: one bar per label, updated with (done, total)."""
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=not enabled,
    ) as bar:

        def make(label: str) -> Callable[[int, int], None]:
            task = bar.add_task(label, total=None)

            def update(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            return update

        yield make


def _sides(text: str | None, seats: int) -> list[int] | None:
    if text is None:
        return None
    try:
        sides = [int(part) for part in text.split(",")]
    except ValueError:
        raise typer.BadParameter(
            f"--sides takes one side number per seat, e.g. 0,0,1; got {text!r}"
        ) from None
    if len(sides) != seats:
        raise typer.BadParameter(f"--sides needs {seats} numbers (one per seat), got {len(sides)}")
    return sides


def tournament(
    game_id: GameArg,
    agents: Annotated[
        str, typer.Option("--agents", help="Comma-separated bot names.")
    ] = "hard,heuristic,random",
    games_: Annotated[int, typer.Option("--games", help="Games to play (all seat rotations).")] = 200,
    seed: SeedOpt = 0,
    jobs: JobsOpt = 1,
    out_file: Annotated[
        Path | None, typer.Option("--out", help="JSONL results; a rerun resumes from it.")
    ] = None,
    backend: BackendOpt = "process",
    address: AddressOpt = None,
    until_significant: Annotated[
        bool, typer.Option("--until-significant", help="A/B SPRT: stop once the result is significant.")
    ] = False,
    elo0: Annotated[float, typer.Option("--elo0", help="SPRT H0: A is this many Elo stronger.")] = -20.0,
    elo1: Annotated[float, typer.Option("--elo1", help="SPRT H1: A is this many Elo stronger.")] = 20.0,
    alpha: Annotated[float, typer.Option("--alpha", help="SPRT false-positive rate.")] = 0.05,
    beta: Annotated[float, typer.Option("--beta", help="SPRT false-negative rate.")] = 0.05,
    batch: Annotated[int, typer.Option("--batch", help="SPRT: games between looks.")] = 50,
    variant: Annotated[str | None, typer.Option("--variant", help="The game's variant option.")] = None,
    players: Annotated[int | None, typer.Option("--players", help="Number of players.")] = None,
    option: OptionOpt = None,
    sides: Annotated[
        str | None, typer.Option("--sides", help="Side number per seat for team ratings, e.g. 0,0,1.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
    progress: ProgressOpt = True,
) -> None:
    """Play every agent in every seat; print win rates (Wilson intervals), margins, head-to-head and ratings."""
    from warcards.arena import (
        SPRTConfig,
        TournamentSpec,
        agent_summaries,
        duplicate_comparisons,
        head_to_head,
        make_backend,
        rate,
        run_tournament,
        seat_rates,
    )

    _check_game(game_id)
    names = _agents(agents)
    game = game_from_flags(game_id, variant, players, None, option or [])
    seat_sides = _sides(sides, game.num_players)
    try:
        spec = TournamentSpec(game_id, names, games_, seed, game.options)
        runner = make_backend(backend, jobs, address)
        sprt_config = SPRTConfig(elo0, elo1, alpha, beta) if until_significant else None
        with _progress(progress and not as_json and sys.stderr.isatty()) as bar:
            result = run_tournament(spec, runner, out_file, bar(f"{game_id}"), sprt_config, batch)
    except WarcardsError as error:
        raise typer.BadParameter(str(error)) from None
    except ValueError as error:
        console.print(f"[red]{error}[/red]")
        raise typer.Exit(2) from None
    except RuntimeError as error:
        console.print(f"[red]{error}[/red]\nThe games finished so far are kept in --out; rerun to resume.")
        raise typer.Exit(1) from None
    records = result.records
    summaries = agent_summaries(records)
    seats = seat_rates(records, game.seat_names())
    order, matrix = head_to_head(records)
    duplicates = duplicate_comparisons(records)
    ratings = rate(records, seat_sides)
    if as_json:
        print(
            json.dumps(
                {
                    "game": game_id,
                    "options": game.options,
                    "games": len(records),
                    "agents": [_summary_json(s) for s in summaries],
                    "seats": [_rate_json(r) for r in seats],
                    "head_to_head": {"order": order, "matrix": matrix},
                    "same_seat": [vars(c) | {"verdict": c.significant} for c in duplicates],
                    "ratings": [vars(rating) for rating in ratings],
                    "sprt": vars(result.sprt) if result.sprt else None,
                },
                indent=2,
            )
        )
        return
    table = Table(title=f"{game_id}: {len(records)} games, seed {seed}")
    for column in (
        "agent",
        "seat-games",
        "win rate",
        "95% interval",
        "even",
        "verdict",
        "mean return",
        "margin",
    ):
        table.add_column(column, justify="left" if column == "agent" else "right")
    for s in summaries:
        table.add_row(
            s.agent,
            str(s.win.trials),
            f"{s.win.rate:.3f}",
            f"[{s.win.low:.3f}, {s.win.high:.3f}]",
            f"{s.win.even:.3f}",
            s.win.significant,
            f"{s.mean_return:.3f}",
            f"{s.margin:+.3f} [{s.margin_low:+.3f}, {s.margin_high:+.3f}]",
        )
    out.print(table)
    h2h = Table(title="head to head: row's best seat beats column's (ties ½)")
    h2h.add_column("")
    for name in order:
        h2h.add_column(name, justify="right")
    for name, row in zip(order, matrix, strict=True):
        h2h.add_row(name, *("-" if v is None else f"{v:.3f}" for v in row))
    out.print(h2h)
    dup = Table(title="same deal, same seat: row's win share minus column's (mean over deals)")
    for column in ("agent", "vs", "deals", "difference", "95% interval", "verdict"):
        dup.add_column(column, justify="left" if column in ("agent", "vs") else "right")
    for c in duplicates:
        dup.add_row(c.agent, c.other, str(c.deals), f"{c.mean:+.3f}", f"[{c.low:+.3f}, {c.high:+.3f}]", c.significant)
    out.print(dup)
    rt = Table(title="openskill (Plackett–Luce) ratings")
    for column in ("agent", "mu", "sigma", "ordinal", "games"):
        rt.add_column(column, justify="left" if column == "agent" else "right")
    for rating in ratings:
        rt.add_row(
            rating.agent,
            f"{rating.mu:.2f}",
            f"{rating.sigma:.2f}",
            f"{rating.ordinal:.2f}",
            str(rating.games),
        )
    out.print(rt)
    st = Table(title="win rate per seat")
    for column in ("seat", "win rate", "95% interval", "even", "verdict"):
        st.add_column(column, justify="left" if column == "seat" else "right")
    for r in seats:
        st.add_row(r.label, f"{r.rate:.3f}", f"[{r.low:.3f}, {r.high:.3f}]", f"{r.even:.3f}", r.significant)
    out.print(st)
    if result.sprt is not None:
        v = result.sprt
        verdict = {"H1": f"{names[0]} is stronger", "H0": f"{names[0]} is not stronger", None: "undecided"}
        out.print(
            f"SPRT after {v.games} games: score {v.mean:.3f}, LLR {v.llr:.2f} in [{v.lower:.2f}, {v.upper:.2f}]"
            f" -> {verdict[v.decision]} (H0 elo {elo0:+g}, H1 elo {elo1:+g})"
        )


def _rate_json(rate: Any) -> dict[str, Any]:
    return {
        "label": rate.label,
        "trials": rate.trials,
        "wins": rate.wins,
        "rate": rate.rate,
        "low": rate.low,
        "high": rate.high,
        "even": rate.even,
        "verdict": rate.significant,
    }


def _summary_json(summary: Any) -> dict[str, Any]:
    return {
        "agent": summary.agent,
        "win": _rate_json(summary.win),
        "mean_return": summary.mean_return,
        "margin": [summary.margin, summary.margin_low, summary.margin_high],
    }


def balance(
    game_id: GameArg,
    variant: Annotated[
        list[str] | None, typer.Option("--variant", help="A variant to include (repeat; default: all).")
    ] = None,
    players: Annotated[
        list[int] | None, typer.Option("--players", help="A player count to include (repeat).")
    ] = None,
    option: OptionOpt = None,
    vary: Annotated[
        list[str] | None,
        typer.Option("--vary", help="Compare an option's values, e.g. length=short,normal,long (repeat)."),
    ] = None,
    agent: Annotated[str, typer.Option("--agent", help="The bot in every seat.")] = "heuristic",
    games_: Annotated[int, typer.Option("--games", help="Games per configuration.")] = 400,
    seed: SeedOpt = 0,
    jobs: JobsOpt = 1,
    backend: BackendOpt = "process",
    address: AddressOpt = None,
    out_dir: Annotated[
        Path | None, typer.Option("--out-dir", help="Report directory (default docs/balance/GAME).")
    ] = None,
    results_dir: Annotated[
        Path | None,
        typer.Option("--results-dir", help="JSONL results, resumed on rerun (default results/balance/GAME)."),
    ] = None,
    read: Annotated[
        list[Path] | None, typer.Option("--read", help="Analyse these JSONL files instead of playing.")
    ] = None,
    progress: ProgressOpt = True,
) -> None:
    """Equal bots in every seat: a Markdown report with plots of seat/first-player edge, length, action impact."""
    from warcards.arena import make_backend
    from warcards.arena.balance import configurations, reports_from_files, run_balance, write_report

    _check_game(game_id)
    _agents(agent)
    target = out_dir or Path("docs/balance") / game_id
    words = ["warcards", "balance", game_id, "--agent", agent, "--games", str(games_), "--seed", str(seed)]
    for value in variant or []:
        words += ["--variant", value]
    for count in players or []:
        words += ["--players", str(count)]
    for pair in option or []:
        words += ["--option", pair]
    for pair in vary or []:
        words += ["--vary", pair]
    command = shlex.join(words)
    try:
        if read:
            reports = reports_from_files(read)
        else:
            varied = {key: value.split(",") for key, value in parse_pairs(vary or []).items()}
            configs = configurations(game_id, variant or [], players or [], parse_pairs(option or []), varied)
            runner = make_backend(backend, jobs, address)
            with _progress(progress and sys.stderr.isatty()) as bar:
                reports = run_balance(
                    game_id,
                    configs,
                    agent,
                    games_,
                    seed,
                    results_dir or Path("results/balance") / game_id,
                    runner,
                    bar,
                )
        path = write_report(game_id, reports, target, command, agent)
    except ValueError as error:
        console.print(f"[red]{error}[/red]")
        raise typer.Exit(2) from None
    out.print(f"wrote {path}")


def register(app: typer.Typer) -> None:
    """Add `tournament` and `balance` to the `warcards` command."""
    app.command("tournament")(tournament)
    app.command("balance")(balance)
