"""`warcards tournament` and `warcards balance`: the arena on the command line.

Bad entries raise `CommandLineError` (or the engine's own errors); `warcards.cli.main`'s error boundary
prints them as one line with exit code 2. Text from users or files is escaped before Rich prints it.
"""

from __future__ import annotations

import json
import shlex
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from warcards.cli.options import (
    CommandLineError,
    ParamOpt,
    bot_list,
    check_bot,
    game_from_flags,
    input_file,
    output_file,
    parse_pairs,
    parse_params,
    require_stats,
)
from warcards.engine.options import PATH_QUOTE
from warcards.engine.registry import check_game, load_game, option_specs, param_specs
from warcards.engine.text import quote

console = Console(stderr=True)
out = Console()

GameArg = Annotated[str, typer.Argument(help="Game id (see `warcards games`).")]
SeedOpt = Annotated[
    int,
    typer.Option("--seed", min=0, max=2**63 - 1, help="Master seed (0 to 2^63-1): same seed, same games, whatever --jobs."),
]
JobsOpt = Annotated[int, typer.Option("--jobs", "-j", min=1, help="Worker processes (or Ray CPUs).")]
BackendOpt = Annotated[str, typer.Option("--backend", help="process (a local pool) or ray.")]
AddressOpt = Annotated[
    str | None, typer.Option("--address", help="Ray cluster address (e.g. auto, ray://head:10001).")
]
OptionOpt = Annotated[list[str] | None, typer.Option("--option", "-o", help="Any game option as key=value.")]
ProgressOpt = Annotated[bool, typer.Option("--progress/--no-progress", help="Show a progress bar.")]


def _agents(text: str) -> tuple[str, ...]:
    names = tuple(bot_list(text, "--agents"))
    if len(set(names)) != len(names):
        raise CommandLineError(f"--agents lists a bot twice: {quote(text)}")
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
    parts = [part.strip() for part in text.split(",")]
    if not all(part.isascii() and part.isdigit() and len(part) <= 6 for part in parts):
        raise CommandLineError(f"--sides takes one side number per seat, e.g. 0,0,1; got {quote(text)}")
    if len(parts) != seats:
        raise CommandLineError(f"--sides needs {seats} numbers (one per seat), got {len(parts)}")
    return [int(part) for part in parts]


def tournament(
    game_id: GameArg,
    agents: Annotated[
        str, typer.Option("--agents", help="Comma-separated bot names.")
    ] = "hard,heuristic,random",
    games_: Annotated[int, typer.Option("--games", min=1, help="Games to play (all seat rotations).")] = 200,
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
    batch: Annotated[int, typer.Option("--batch", min=1, help="SPRT: games between looks.")] = 50,
    variant: Annotated[str | None, typer.Option("--variant", help="The game's variant option.")] = None,
    players: Annotated[int | None, typer.Option("--players", help="Number of players.")] = None,
    option: OptionOpt = None,
    param: ParamOpt = None,
    sides: Annotated[
        str | None, typer.Option("--sides", help="Side number per seat for team ratings, e.g. 0,0,1.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
    progress: ProgressOpt = True,
) -> None:
    """Play every agent in every seat; print win rates (Wilson intervals), margins, head-to-head and ratings."""
    require_stats("warcards tournament")
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

    game = game_from_flags(game_id, variant, players, None, option or [], param)
    names = _agents(agents)
    seat_sides = _sides(sides, game.num_players)
    if out_file is not None:
        output_file(out_file, "--out")
    spec = TournamentSpec(game_id, names, games_, seed, game.options)
    sprt_config = SPRTConfig(elo0, elo1, alpha, beta) if until_significant else None
    runner = make_backend(backend, jobs, address)
    try:
        with _progress(progress and not as_json and sys.stderr.isatty()) as bar:
            result = run_tournament(spec, runner, out_file, bar(escape(game_id)), sprt_config, batch)
    except RuntimeError as error:
        # A game that fails is a bug in a bot or a game: say which, keep what finished.
        console.print(str(error), style="red", markup=False, highlight=False)
        console.print("The games finished so far are kept in --out; rerun to resume.")
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


def fresh_folder(game_id: str, where: Path | None = None) -> Path:
    """Create and return a new folder `balance-GAME-YYYYMMDD-HHMMSS` (with `-2`, `-3` … if that exists)
    in `where` (the current folder by default): a report is never written over another by default."""
    base = (where or Path.cwd()) / f"balance-{game_id}-{time.strftime('%Y%m%d-%H%M%S')}"
    for attempt in range(1, 1000):
        folder = base if attempt == 1 else base.with_name(f"{base.name}-{attempt}")
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        return folder
    raise CommandLineError(f"could not create a fresh folder next to {quote(str(base), PATH_QUOTE)}; give --out DIR")


def balance(
    game_id: GameArg,
    variant: Annotated[
        list[str] | None, typer.Option("--variant", help="A variant to include (repeat; default: all).")
    ] = None,
    players: Annotated[
        list[int] | None, typer.Option("--players", help="A player count to include (repeat).")
    ] = None,
    option: OptionOpt = None,
    param: ParamOpt = None,
    vary: Annotated[
        list[str] | None,
        typer.Option("--vary", help="Compare an option's values, e.g. length=short,normal,long (repeat)."),
    ] = None,
    agent: Annotated[
        str | None,
        typer.Option("--agent", help="The bot in every seat (default heuristic; with --read, the records').")
    ] = None,
    games_: Annotated[int, typer.Option("--games", min=1, help="Games per configuration.")] = 400,
    seed: SeedOpt = 0,
    jobs: JobsOpt = 1,
    backend: BackendOpt = "process",
    address: AddressOpt = None,
    out_dir: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "--out-dir",
            help="Report folder, created if needed (default: a fresh ./balance-GAME-TIMESTAMP/).",
        ),
    ] = None,
    results_dir: Annotated[
        Path | None,
        typer.Option("--results-dir", help="JSONL results, resumed on rerun (default: the report folder's results/)."),
    ] = None,
    read: Annotated[
        list[Path] | None, typer.Option("--read", help="Analyse these JSONL files instead of playing.")
    ] = None,
    progress: ProgressOpt = True,
) -> None:
    """Equal bots in every seat: a Markdown report with plots of seat/first-player edge, length, action impact."""
    require_stats("warcards balance")
    from warcards.arena import make_backend
    from warcards.arena.balance import configurations, reports_from_files, run_balance, write_report

    check_game(game_id)
    if agent is not None:
        check_bot(agent)
    for folder, flag in ((out_dir, "--out"), (results_dir, "--results-dir")):
        if folder is not None and folder.exists() and not folder.is_dir():
            raise CommandLineError(f"{flag}: {quote(str(folder), PATH_QUOTE)} exists and is not a folder")
    for file in read or []:
        input_file(file, "--read")
    varied = {key: value.split(",") for key, value in parse_pairs(vary or [], "--vary").items()}
    asked = bool(variant or players or option or vary)
    extra = parse_pairs(option or [])
    if param:
        extra["params"] = parse_params(param)
    configs = configurations(game_id, variant or [], players or [], extra, varied)
    for options in configs:
        load_game(game_id, **options)  # a bad option is refused before any folder is made
    if read:
        reports = reports_from_files(read, game_id, configs if asked else None, agent)
        agent = reports[0].agent
    else:
        agent = agent or "heuristic"
    words = ["warcards", "balance", game_id, "--agent", agent, "--games", str(games_), "--seed", str(seed)]
    for value in variant or []:
        words += ["--variant", value]
    for count in players or []:
        words += ["--players", str(count)]
    for pair in option or []:
        words += ["--option", pair]
    for pair in param or []:
        words += ["--param", pair]
    for pair in vary or []:
        words += ["--vary", pair]
    for file in read or []:
        words += ["--read", str(file)]
    if out_dir is not None:
        words += ["--out", str(out_dir)]
    if results_dir is not None:
        words += ["--results-dir", str(results_dir)]
    command = shlex.join(words)
    runner = None if read else make_backend(backend, jobs, address)
    target = out_dir if out_dir is not None else fresh_folder(game_id)
    if out_dir is None:
        console.print(f"balance: writing into {target}", markup=False, highlight=False)
    if runner is not None:
        with _progress(progress and sys.stderr.isatty()) as bar:
            reports = run_balance(
                game_id, configs, agent, games_, seed, results_dir or target / "results", runner, bar
            )
    path = write_report(game_id, reports, target, command, agent)
    out.print(f"wrote {path}", markup=False, highlight=False)
    if not read and results_dir is None and out_dir is None:
        out.print(f"(the games are in {target / 'results'}; rerun with --out {target} to resume)", markup=False)


def tune(
    game_id: GameArg,
    space_file: Annotated[
        Path, typer.Option("--space", help="The search space (TOML: parameters, ranges, objectives; docs/tuning.md).")
    ],
    trials: Annotated[int | None, typer.Option("--trials", min=1, help="Finished trials wanted in the study.")] = None,
    games_: Annotated[int | None, typer.Option("--games", min=4, help="Games a trial (default: the space's).")] = None,
    seed: SeedOpt = 0,
    jobs: JobsOpt = 1,
    backend: BackendOpt = "process",
    address: AddressOpt = None,
    storage: Annotated[
        str | None,
        typer.Option("--storage", help="Optuna storage URL (default: SQLite in the output folder); "
                     "postgresql://… lets several machines share the study."),
    ] = None,
    study_name: Annotated[str | None, typer.Option("--study", help="The study's name (default: from the space file).")] = None,
    out_dir: Annotated[
        Path | None, typer.Option("--out", help="Report folder (default ./tune-GAME-SPACE; rerun to resume).")
    ] = None,
    resimulate_games: Annotated[
        int, typer.Option("--resimulate", min=10, help="Fresh-seed games for each reported setting.")
    ] = 400,
    progress: ProgressOpt = True,
) -> None:
    """Search the game's rule parameters for a balanced setting (Optuna), then report the best settings
    re-simulated on fresh seeds, beside the rule text's, with the `--param` line to play them."""
    require_stats("warcards tune")
    from warcards.arena import make_backend
    from warcards.arena.tune import (
        CardSource,
        Study,
        candidates,
        check_space,
        finished_trials,
        fresh_seed,
        optimize,
        read_space,
        registry_specs,
        resimulate,
        status_line,
        write_report,
    )
    from warcards.arena.tune_cards import shipped_card_file

    _require_optuna()
    space = read_space(input_file(space_file, "--space"))
    if space.game != game_id:
        raise CommandLineError(f"--space names game {quote(space.game)}, not {quote(game_id)}")
    if trials is not None:
        space.trials = trials
    if games_ is not None:
        space.games = games_
    game = load_game(game_id, **space.options)
    specs = param_specs(game_id, dict(space.options))
    check_space(space, specs)
    check_bot(space.bot)
    lineup = space.lineup(game.seat_names())
    for bot in lineup:
        check_bot(bot)
    target = out_dir if out_dir is not None else Path.cwd() / f"tune-{game_id}-{space_file.stem}"
    target.mkdir(parents=True, exist_ok=True)
    url = storage or f"sqlite:///{target.resolve() / 'study.sqlite3'}"
    name = study_name or f"{game_id}-{space_file.stem}-seed{seed}"
    cards = None
    if space.cards and "cards" not in {option.name for option in option_specs(game_id)}:
        raise CommandLineError(f"{game_id} takes no cards option, so the tuner cannot play it with changed card "
                               f"values; remove [cards.…] from the search space (card_impact still works)")
    if space.cards or space.measures_impact:
        given = space.options.get("cards")
        base = Path(given) if isinstance(given, str) else shipped_card_file(game)
        cards = CardSource.read(base, space, target.resolve() / "cards")
    runner = make_backend(backend, jobs, address)
    run = Study(space, specs, registry_specs(space, lineup), game.num_players, url, name, seed, runner, cards,
                lineup)
    run.check_cards()
    words = ["warcards", "tune", game_id, "--space", str(space_file), "--seed", str(seed), "--out", str(target)]
    command = shlex.join(words)
    with _tune_progress(progress and sys.stderr.isatty(), space.trials) as show:
        study = optimize(run, lambda study, _trial: show(len(finished_trials(study)), status_line(study, space.trials)))
    chosen = candidates(run, study)
    resimulate(run, chosen, resimulate_games, fresh_seed(seed))
    path = write_report(run, study, chosen, target, game.seat_names(), command, fresh_seed(seed))
    out.print(f"wrote {path}", markup=False, highlight=False)


@contextmanager
def _tune_progress(enabled: bool, trials: int) -> Iterator[Callable[[int, str], None]]:
    """The tune bar: finished trials of those wanted, with the status line (pruned, best so far) beside it."""
    with Progress(TextColumn("tune"), BarColumn(), TextColumn("{task.description}"), console=console,
                  disable=not enabled) as bar:
        task = bar.add_task(f"trial 0/{trials}", total=trials)

        def show(done: int, status: str) -> None:
            bar.update(task, completed=done, description=escape(status))

        yield show


def _require_optuna() -> None:
    try:
        import optuna  # noqa: F401
    except ModuleNotFoundError:
        raise CommandLineError(
            'warcards tune needs the tuning extra (Optuna, scikit-learn): pip install -e ".[stats,tune]" in the '
            "warcards checkout"
        ) from None


def register(app: typer.Typer) -> None:
    """Add `tournament`, `balance` and `tune` to the `warcards` command."""
    app.command("tournament")(tournament)
    app.command("balance")(balance)
    app.command("tune")(tune)
