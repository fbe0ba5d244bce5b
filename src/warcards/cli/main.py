"""The `warcards` command: play, simulate, bench, replay, scenario, rules, games (and arena commands).

One error boundary (`_Boundary`, the app's command group) stands between every command and the user:
- a bad input — our `WarcardsError`s (unknown game, bad option, bad record …), any other `ValueError`
  (pydantic and JSON errors included) and `OSError` (a missing, unreadable or misplaced file) — prints one
  line `Error: …` on stderr and exits with code 2;
- Click's own usage errors (an unknown flag, a missing argument, a value of the wrong type) keep Click's
  format and exit code 2, with the message cut to a bounded length;
- anything else is a bug: one line saying so on stderr and exit code 1; `--debug` (or the environment
  variable `WARCARDS_DEBUG=1`) shows the traceback instead.
Commands never catch these errors themselves: they raise, and the boundary reports. Every text a user or a
file supplies is quoted with `quote` (a short prefix) and escaped before Rich prints it.
"""

from __future__ import annotations

import importlib
import json
import math
import os
import secrets
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from typer._click import (  # Typer 0.29 vendors Click: its errors are these
    ClickException,
    Command,
    Context,
    HelpFormatter,
)
from typer.core import TyperGroup

from warcards import __version__
from warcards.cli.bots_help import VS_HELP, PlayCommand, ladder_lines, seats_text
from warcards.cli.help_words import plain_words
from warcards.cli.options import (
    CommandLineError,
    ParamOpt,
    bot_list,
    check_bot,
    game_from_flags,
    input_file,
    output_file,
    require_stats,
)
from warcards.cli.texts import show_text
from warcards.engine.guides import guide_text, one_ruling, rulings_text
from warcards.engine.options import PATH_QUOTE
from warcards.engine.registry import (
    check_game,
    conformance_configs,
    games,
    load_game,
    option_specs,
    param_specs,
)
from warcards.engine.text import quote
from warcards.match import (
    HUMAN,
    MatchRecord,
    PlayRecord,
    RecordError,
    parse_record,
    read_record_values,
    record_game,
    record_model,
)
from warcards.match import replay as replay_record

if TYPE_CHECKING:
    from warcards.engine.api import Game

DEBUG_ENV = "WARCARDS_DEBUG"
"""Set to 1 to see the traceback of an internal error (as `--debug` does)."""

MESSAGE_LIMIT = 400
"""The longest error message the boundary prints (a user's input is quoted shorter still)."""


def _one_line(message: str, limit: int = MESSAGE_LIMIT) -> str:
    text = " ".join(part.strip() for part in message.splitlines() if part.strip())
    if len(text) > limit:
        return f"{text[:limit]}… ({len(text) - limit} more characters)"
    return text


def _describe(error: BaseException) -> str:
    """A bad input's error as a message; an `OSError` names its file (quoted) and the reason."""
    if isinstance(error, OSError) and error.strerror:
        if error.filename is not None:
            return f"{quote(str(error.filename), PATH_QUOTE)}: {error.strerror}"
        return error.strerror
    return str(error) or type(error).__name__


def _debugging(ctx: Context) -> bool:
    return bool(ctx.meta.get("warcards.debug")) or os.environ.get(DEBUG_ENV, "") not in ("", "0")


class _Boundary(TyperGroup):
    """The `warcards` group: every command runs inside `invoke`, so its errors are reported here; its help
    and its commands' read in words (`plain_words`)."""

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            plain_words(command)
        return command

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        plain_words(self)
        super().format_help(ctx, formatter)

    def make_context(
        self, info_name: str | None, args: list[str], parent: Context | None = None, **extra: Any
    ) -> Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except ClickException as error:
            error.message = _one_line(error.message)
            raise

    def invoke(self, ctx: Context) -> Any:
        try:
            return super().invoke(ctx)
        except ClickException as error:
            error.message = _one_line(error.message)
            raise
        except (typer.Exit, typer.Abort):
            raise
        except (ValueError, OSError) as error:
            if _debugging(ctx):
                raise
            typer.echo(f"Error: {_one_line(_describe(error))}", err=True)
            raise typer.Exit(2) from None
        except Exception as error:
            if _debugging(ctx):
                raise
            typer.echo(
                f"Internal error (a bug in warcards, please report it): {type(error).__name__}: "
                f"{_one_line(str(error), 200)} — rerun with --debug or {DEBUG_ENV}=1 for the traceback",
                err=True,
            )
            raise typer.Exit(1) from None


app = typer.Typer(
    name="warcards",
    help="Play, simulate and study four World War 2 card games: "
    "Race to Messina, Med Sirocco, Naval War and Cards of War.",
    no_args_is_help=True,
    add_completion=False,
    cls=_Boundary,
)
console = Console()

GameArg = Annotated[str, typer.Argument(help="Game id (see `warcards games`).")]
VariantOpt = Annotated[str | None, typer.Option("--variant", help="The game's variant option.")]
PlayersOpt = Annotated[int | None, typer.Option("--players", help="Number of players.")]
CardsOpt = Annotated[str | None, typer.Option("--cards", help="Your own card data file (same format).")]
OptionOpt = Annotated[list[str] | None, typer.Option("--option", "-o", help="Any game option as key=value.")]
SEED_MAX = 2**63 - 1
SeedOpt = Annotated[
    int, typer.Option("--seed", min=0, max=SEED_MAX, help="Master seed (0 to 2^63-1): same seed, same games.")
]


@app.command("games")
def list_games(
    game_id: Annotated[
        str | None, typer.Argument(help="A game id: show its options and its rule parameters (--param).")
    ] = None,
) -> None:
    """List the games, their options and seats, and the bots by strength; with a game id, that game's rule
    parameters too (the numbers `--param NAME=VALUE` may change, each with its range)."""
    for shown in [check_game(game_id)] if game_id is not None else games():
        table = Table(title=escape(shown), caption=escape(f"seats: {seats_text(shown)}"), show_lines=False)
        table.add_column("option")
        table.add_column("default")
        table.add_column("allowed")
        table.add_column("meaning")
        for spec in option_specs(shown):
            table.add_row(
                escape(spec.name), escape(repr(spec.default)), escape(spec.describe_allowed()), escape(spec.doc)
            )
        console.print(table)
        if game_id is not None:
            _print_parameters(shown)
    if game_id is None:
        console.print("Bots (play --vs), weakest first:", *map(escape, ladder_lines()), sep="\n")


def _print_parameters(game_id: str) -> None:
    """The rule parameters of each of the game's variants (the conformance option sets), as tables."""
    seen: set[tuple[str, ...]] = set()
    for config in conformance_configs(game_id):
        specs = param_specs(game_id, config)
        key = tuple(spec.describe() for spec in specs)
        if not specs or key in seen:
            continue
        seen.add(key)
        where = ", ".join(f"{name}={value}" for name, value in config.items()) or "every variant"
        table = Table(title=escape(f"rule parameters ({where}): --param NAME=VALUE"))
        table.add_column("parameter")
        table.add_column("default")
        table.add_column("range")
        table.add_column("meaning")
        for spec in specs:
            table.add_row(escape(spec.name), str(spec.default), f"{spec.low}–{spec.high}",
                          escape(f"{spec.meaning}; {spec.rule}"))
        console.print(table)
    if not seen:
        console.print(escape(f"{game_id} has no rule parameters yet."))


NEW_SEEDS = 1_000_000
"""A game without `--seed` gets a random seed below this (short enough to retype)."""


@app.command(cls=PlayCommand)
def play(
    game_id: Annotated[
        str | None, typer.Argument(help="Game id (see `warcards games`); omit it with --resume.")
    ] = None,
    variant: VariantOpt = None,
    players: PlayersOpt = None,
    cards: CardsOpt = None,
    option: OptionOpt = None,
    param: ParamOpt = None,
    seat: Annotated[
        str | None, typer.Option("--seat", help="Your seat, by name or number (default: the first seat).")
    ] = None,
    vs: Annotated[
        str | None, typer.Option("--vs", help=VS_HELP)
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", min=0, max=SEED_MAX, help="The game's seed, 0 to 2^63-1 (default: a random one, printed)."
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write the game's record to this file as it goes (continue it with --resume)."),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option("--resume", help="Continue the game saved in this file by --out (and keep saving it there)."),
    ] = None,
) -> None:
    """Play a game in the terminal against bots: `help` at the prompt lists the commands (undo, log, guide …)."""
    from warcards.cli.play import TerminalGame

    if resume is not None:
        given = {
            "--variant": variant, "--players": players, "--cards": cards, "--option": option, "--param": param,
            "--seat": seat, "--vs": vs, "--seed": seed,
        }
        extra = [flag for flag, value in given.items() if value not in (None, [])]
        if extra:
            raise CommandLineError(
                f"--resume continues the saved game with its own options, seat, bots and seed; drop {', '.join(extra)}"
            )
        game, record = _saved_game(resume, game_id)
        out = out or resume
        bots, human, start = record.agents, record.humans[0], record.seed
        actions: list[int] = record.actions
    else:
        if game_id is None:
            raise CommandLineError("name the game to play (`warcards games` lists them), or --resume FILE")
        game = game_from_flags(game_id, variant, players, cards, option or [], param)
        human = game.parse_seat("0" if seat is None else seat)
        bots = [check_bot(vs or "heuristic")] * game.num_players
        start = secrets.randbelow(NEW_SEEDS) if seed is None else seed
        actions = []
    if out is not None and output_file(out, "--out").exists() and (resume is None or not out.samefile(resume)):
        raise CommandLineError(
            f"--out: {quote(str(out), PATH_QUOTE)} exists; continue it with --resume, or choose a new file"
        )
    session = TerminalGame(
        game,
        human,
        bots[0],
        start,
        console,
        lambda prompt: console.input(escape(prompt)),
        bots=bots,
        actions=actions,
        out=out,
        status_console=Console(stderr=True),
    )
    session.run()


def _saved_game(path: Path, game_id: str | None) -> tuple[Game, PlayRecord]:
    """The game saved in `path` by `play --out`, checked (`replay`) and not over; `CommandLineError` or
    `RecordError` saying what is wrong."""
    where, data = _one_record(path, "--resume")
    if not (isinstance(data, dict) and "humans" in data):
        raise CommandLineError(f"--resume: {where} is not a game saved by `warcards play --out`")
    record = _replay_one(where, data)
    assert isinstance(record, PlayRecord)
    if record.finished():
        raise CommandLineError(f"--resume: the game in {where} is over; see it with warcards replay --show")
    if len(record.humans) != 1:
        raise CommandLineError(f"--resume: {where} has {len(record.humans)} people's seats; play takes one")
    if game_id is not None and game_id != record.game:
        raise CommandLineError(f"--resume: {where} is a game of {quote(record.game)}, not {quote(game_id)}")
    game = record_game(record)
    seats = ["'human'" if seat in record.humans else "a bot's name" for seat in range(game.num_players)]
    if len(record.agents) != game.num_players or any(
        (name == HUMAN) != (seat in record.humans) for seat, name in enumerate(record.agents)
    ):
        raise CommandLineError(f"--resume: the agents of {where} must be, seat by seat: {', '.join(seats)}")
    for seat, name in enumerate(record.agents):
        if seat not in record.humans:
            check_bot(name)
    return game, record


def _one_record(path: Path, flag: str) -> tuple[str, Any]:
    """The one record a file holds (`where` it is, its parsed JSON); a file of several is refused."""
    name = quote(str(path), PATH_QUOTE)
    values = read_record_values(input_file(path, flag))
    _, first = next(values)
    if next(values, None) is not None:
        raise CommandLineError(f"{flag}: {name} holds several game records; give one game")
    return name, first


@app.command()
def simulate(
    game_id: GameArg,
    variant: VariantOpt = None,
    players: PlayersOpt = None,
    cards: CardsOpt = None,
    option: OptionOpt = None,
    param: ParamOpt = None,
    n: Annotated[int, typer.Option("-n", "--games", min=1, help="Number of games.")] = 1000,
    bots: Annotated[
        str, typer.Option("--bots", help="Bots by seat, comma-separated (the last repeats).")
    ] = "heuristic,random",
    seed: SeedOpt = 0,
    jobs: Annotated[int, typer.Option("--jobs", min=1, help="Worker processes.")] = 1,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write every game record as JSONL; a rerun of the same run resumes from it."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Simulate many seeded games between bots: win rates with 95% intervals, mean length."""
    from warcards.simulate import resume, run_games, summarize

    game = game_from_flags(game_id, variant, players, cards, option or [], param)
    names = bot_list(bots, "--bots")
    if len(names) > game.num_players:
        raise CommandLineError(
            f"--bots names {len(names)} bots but {game_id} here has {game.num_players} seats"
        )
    seat_bots = (names + [names[-1]] * game.num_players)[: game.num_players]
    finished = resume(output_file(out, "--out"), game_id, game.options, seat_bots, seed) if out else []
    done = finished[:n]
    handle = out.open("a", encoding="utf-8") if out else None
    try:
        with Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            disable=as_json,
        ) as progress:
            label = f"{game_id} {game.options.get('variant', '')}".strip()
            task = progress.add_task(escape(label), total=n, completed=len(done))

            def record_done(record: Any) -> None:
                progress.advance(task)
                if handle:
                    handle.write(record.model_dump_json() + "\n")
                    handle.flush()

            records = done + run_games(
                game_id, game.options, seat_bots, n, seed, jobs, record_done, start=len(done)
            )
    finally:
        if handle:
            handle.close()
    summary = summarize(game_id, game.options, seat_bots, records)
    if as_json:
        print(
            json.dumps(
                {
                    "game": summary.game,
                    "options": summary.options,
                    "games": summary.games,
                    "mean_length": summary.mean_length,
                    "seats": [vars(s) for s in summary.seats],
                },
                indent=2,
            )
        )
        return
    table = Table(title=escape(f"{game_id} {summary.games} games, seed {seed}"))
    for column in ("seat", "bot", "wins", "win rate", "95% interval", "mean return"):
        table.add_column(column, justify="right" if column != "seat" else "left")
    for s in summary.seats:
        table.add_row(
            escape(s.seat_name),
            escape(s.bot),
            f"{s.wins:g}",
            f"{s.win_rate:.3f}",
            escape(f"[{s.low:.3f}, {s.high:.3f}]"),
            f"{s.mean_return:.3f}",
        )
    console.print(table)
    if len(finished) > len(done):
        console.print(f"(the --out file holds {len(finished)} games; the summary covers the first {n})")
    console.print(f"mean game length: {summary.mean_length:.1f} actions")


SERVER_BENCH_CLIENTS = 2
"""Load-client processes of `warcards bench --server` by default."""

SERVER_BENCH_MAX_CLIENTS = 32
"""At most this many load-client processes (each is a Python interpreter)."""


@dataclass(frozen=True)
class ServerBenchOptions:
    """The flags of `warcards bench --server` beyond the tables, game and databases."""

    client_processes: int
    think: str
    duration: float | None
    serve_flags: tuple[str, ...]
    as_json: bool
    seed: int


@app.command()
def bench(
    game: Annotated[list[str] | None, typer.Option("--game", help="Only these games.")] = None,
    seconds: Annotated[float, typer.Option("--seconds", help="Seconds of playouts per row.")] = 2.0,
    compare: Annotated[
        bool, typer.Option("--compare", help="Also run OpenSpiel's C++ hearts, alternating.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
    search: Annotated[
        str | None,
        typer.Option(
            "--search", help="Also time this search bot level (e.g. hard): simulations/s, s/decision."
        ),
    ] = None,
    seed: SeedOpt = 0,
    server: Annotated[
        bool,
        typer.Option(
            "--server",
            help="Instead: K tables of person seats played by load-client processes through a real "
            "`warcards serve` over WebSockets (docs/server.md).",
        ),
    ] = False,
    tables: Annotated[int, typer.Option("--tables", help="With --server: concurrent tables.")] = 100,
    database: Annotated[
        list[str] | None,
        typer.Option(
            "--database", help="With --server: sqlite, postgres (a throwaway server) or a URL; repeat for several."
        ),
    ] = None,
    client_processes: Annotated[
        int, typer.Option("--client-processes", help="With --server: load-client processes playing the seats.")
    ] = SERVER_BENCH_CLIENTS,
    think: Annotated[
        str,
        typer.Option(
            "--think", help="With --server: seconds a client waits before each act: 0, SECONDS or MIN..MAX (1..5)."
        ),
    ] = "0",
    duration: Annotated[
        float | None,
        typer.Option(
            "--duration",
            help="With --server: time the acts over a window of this many seconds once every seat is connected "
            "(default: play every game to its end).",
        ),
    ] = None,
    serve_flag: Annotated[
        list[str] | None,
        typer.Option("--serve-flag", help="With --server: one more flag for the `warcards serve` it starts."),
    ] = None,
) -> None:
    """Random-playout speed per game and variant: games/s, actions/s, clone()/s, determinize()/s; with
    --server, the act -> ack latency clients see, and the server's memory per playing table."""
    from warcards.bench import bench_config, bench_configs, hearts_game

    if server:
        _bench_server(
            game, tables, database or ["sqlite", "postgres"],
            ServerBenchOptions(client_processes, think, duration, tuple(serve_flag or ()), as_json, seed),
        )
        return
    if (tables, client_processes, think, duration, serve_flag, database) != (
        100, SERVER_BENCH_CLIENTS, "0", None, None, None
    ):
        raise CommandLineError(
            "--tables, --database, --client-processes, --think, --duration and --serve-flag go with --server"
        )
    if not (math.isfinite(seconds) and seconds > 0):
        raise CommandLineError(f"--seconds must be a number of seconds above 0, got {seconds:g}")
    for game_id in game or []:
        check_game(game_id)
    from warcards.bots.ismcts import LEVELS

    if search is not None and search not in LEVELS:
        raise CommandLineError(f"--search takes a search bot level: {' or '.join(LEVELS)}, not {quote(search)}")
    hearts = None
    if compare:
        try:
            hearts = hearts_game()
        except ImportError as error:
            raise CommandLineError(str(error)) from None
    rows = [bench_config(g, o, seconds, seed, hearts, search) for g, o in bench_configs(game)]
    if as_json:
        print(json.dumps([row.as_dict() for row in rows], indent=2))
        return
    table = Table(title=escape(f"warcards {__version__} random playouts, one process"), box=box.SIMPLE_HEAD)
    # Only the columns this run measures: × hearts with --compare, the search bot's two with --search.
    # Headers on two lines and the game's options below its name: the table fits 80 columns with --compare.
    columns = ["game\noptions", "games\n/s", "actions\n/s", "clones\n/s", "determinize\n/s", "actions\n/game"]
    if hearts is not None:
        columns.append("×\nhearts")
    if search:
        columns += [f"{search}\nsims/s", f"{search}\ns/decision"]
    for column in columns:
        if column == "game\noptions":
            table.add_column(column, min_width=len("variant=invasion"))
        else:
            table.add_column(column, justify="right")
    for row in rows:
        options = ", ".join(
            f"{k}={v}"
            for k, v in row.options.items()
            if k in ("variant", "players", "length") and v is not None
        )
        cells = [
            escape(f"{row.game}\n{options}" if options else row.game),
            f"{row.games_per_s:,.0f}",
            f"{row.actions_per_s:,.0f}",
            f"{row.clones_per_s:,.0f}",
            f"{row.determinize_per_s:,.0f}",
            f"{row.mean_length:.0f}",
        ]
        if hearts is not None:
            cells.append(f"{row.hearts_ratio:.2f}" if row.hearts_ratio is not None else "-")
        if search:
            cells.append(f"{row.search_simulations_per_s:,.0f}" if row.search_simulations_per_s is not None else "")
            cells.append(
                f"{row.search_seconds_per_decision:.2f}" if row.search_seconds_per_decision is not None else ""
            )
        table.add_row(*cells)
    console.print(table)


def _bench_server(games_given: list[str] | None, tables: int, databases: list[str],
                  options: ServerBenchOptions) -> None:
    """`warcards bench --server`: the server benchmark of docs/server.md, once per database."""
    if len(games_given or []) > 1:
        raise CommandLineError("--server takes one --game (cards-of-war by default)")
    game_id = (games_given or ["cards-of-war"])[0]
    check_game(game_id)
    if not 1 <= tables <= 1000:
        raise CommandLineError(f"--tables must be from 1 to 1000, got {tables}")
    if not 1 <= options.client_processes <= SERVER_BENCH_MAX_CLIENTS:
        raise CommandLineError(
            f"--client-processes must be from 1 to {SERVER_BENCH_MAX_CLIENTS}, got {options.client_processes}"
        )
    if options.duration is not None and not (math.isfinite(options.duration) and options.duration > 0):
        raise CommandLineError(f"--duration must be a number of seconds above 0, got {options.duration:g}")
    try:

        from warcards.server import bench as server_bench
        from warcards.server.pgcluster import PostgresUnavailable
    except ImportError as error:
        raise CommandLineError(
            f"the server benchmark needs the server extra ({error.name} is missing): pip install -e \".[server]\""
        ) from None
    try:
        think = server_bench.parse_think(options.think)
    except ValueError as error:
        raise CommandLineError(str(error)) from None
    results = []
    for choice in databases:
        with tempfile.TemporaryDirectory(prefix="warcards-bench-db-") as folder:
            try:
                with server_bench.database_for(choice, Path(folder)) as url:
                    result = server_bench.run(
                        tables, game_id, url, client_processes=options.client_processes, think=think,
                        duration=options.duration, serve_flags=options.serve_flags, seed=options.seed,
                    )
            except PostgresUnavailable as error:
                if not options.as_json:
                    console.print(escape(f"{choice}: skipped — {error}"))
                continue
            except server_bench.BenchError as error:
                typer.echo(f"Error: {_one_line(str(error), 600)}", err=True)
                raise typer.Exit(1) from None
        if options.as_json:
            results.append(result.as_dict())
            continue
        for line in result.lines():
            console.print(escape(line), soft_wrap=True)
    if options.as_json:
        print(json.dumps(results, indent=2))


REPLAY_FAILURES_SHOWN = 10
"""How many refused records `warcards replay` lists before it only counts them."""


def _record_model(data: Any) -> type[MatchRecord]:
    """The record class of parsed JSON: a tournament's (it has an `index`), a played game's or a bots' game."""
    if isinstance(data, dict) and "index" in data:
        require_stats("replaying a tournament record")
        from warcards.arena.tournament import TournamentRecord

        return TournamentRecord
    return record_model(data)


def _replay_one(where: str, data: Any) -> MatchRecord:
    """Check one parsed record: its fields, then the replay itself; the record."""
    record = parse_record(data, where, _record_model(data))
    try:
        replay_record(record)
    except RecordError as error:
        raise RecordError(f"{where}: {error}") from None
    return record


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A JSON record or a JSONL file of records.")],
    show: Annotated[
        bool,
        typer.Option("--show", help="Step through the game (one record) as --seat saw it, or every move once over."),
    ] = False,
    seat: Annotated[str | None, typer.Option("--seat", help="With --show: whose view, by name or number.")] = None,
) -> None:
    """Re-validate game records: chance outcomes from the seed, every action legal, the same returns;
    `--show` steps through one game as a seat saw it."""
    if show:
        _show(file, seat)
        return
    if seat is not None:
        raise CommandLineError("--seat goes with --show (the seat whose view to show)")
    total = bad = unfinished = 0
    for where, data in read_record_values(file):
        total += 1
        try:
            unfinished += not _replay_one(where, data).finished()
        except RecordError as error:
            bad += 1
            if bad <= REPLAY_FAILURES_SHOWN:
                typer.echo(f"Error: {_one_line(str(error))}", err=True)
    if bad > REPLAY_FAILURES_SHOWN:
        typer.echo(f"Error: … and {bad - REPLAY_FAILURES_SHOWN} more refused records", err=True)
    console.print(f"{total - bad} of {total} records replay exactly")
    if unfinished:
        games = "game is" if unfinished == 1 else "games are"
        console.print(escape(
            f"{unfinished} {games} not over: checked as far as played "
            f"(`warcards play --resume {file}` goes on with a game saved by play --out)"
        ))
    if bad:
        raise typer.Exit(2)


def _show(file: Path, seat: str | None) -> None:
    """`replay --show`: one checked record as `seat` saw it; every seat (no `--seat`) only after the end,
    and an unfinished game only as a seat a person plays in it."""
    from warcards.cli.play import show_record

    where, data = _one_record(file, "--show")
    record = _replay_one(where, data)
    game = record_game(record)
    names = game.seat_names()
    number = None if seat is None else game.parse_seat(seat)
    if not record.finished() and isinstance(record, PlayRecord):
        own = ", ".join(names[index] for index in record.humans)
        if number is None:
            raise CommandLineError(
                f"the game in {where} is not over: name the seat to show with --seat ({own}); "
                "every seat is shown only after the end"
            )
        if number not in record.humans:
            raise CommandLineError(
                f"the game in {where} is not over: it is shown only as a seat a person plays ({own})"
            )
    show_record(console, game, record, number)


@app.command()
def scenario(
    files: Annotated[list[Path], typer.Argument(help="Scenario JSON files (docs/scenarios.md).")],
) -> None:
    """Run scenario files: print a JSON result each; exit 1 if an expectation fails, 2 if a file is bad."""
    from warcards.scenario import run_scenario

    status = 0
    for file in files:
        try:
            result = run_scenario(file)
        except (ValueError, OSError) as error:
            print(json.dumps({"file": str(file), "error": _one_line(_describe(error))}))
            status = 2
            continue
        print(json.dumps({"file": str(file), **result.model_dump()}))
        if not result.passed and status == 0:
            status = 1
    raise typer.Exit(status)


@app.command()
def rules(
    game_id: GameArg,
    ruling: Annotated[str | None, typer.Argument(help="One ruling, e.g. R4 (default: all, paged).")] = None,
) -> None:
    """Print a game's rulings on the gaps in its rule text (its RULES.md), or one of them (`R4`)."""
    game = load_game(check_game(game_id))
    show_text(console, one_ruling(game, ruling) if ruling is not None else rulings_text(game))


@app.command()
def guide(game_id: GameArg) -> None:
    """Print how to play a game: the rules in brief, the notation and a walk-through (its GUIDE.md)."""
    show_text(console, guide_text(load_game(check_game(game_id))))


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="The port to listen on.")] = 8000,
    database: Annotated[
        str | None, typer.Option("--database", help="SQLAlchemy URL; default: a SQLite file in your data folder.")
    ] = None,
    allow_origin: Annotated[
        list[str] | None, typer.Option("--allow-origin", help="Another web origin allowed to open WebSockets.")
    ] = None,
    idle_minutes: Annotated[
        float,
        typer.Option("--idle-minutes", min=1.0, help="Minutes an unfinished table nobody uses stays in memory."),
    ] = 30.0,
    sweep_seconds: Annotated[
        float,
        typer.Option("--sweep-seconds", min=1.0, help="How often tables are looked for to leave memory."),
    ] = 30.0,
    drain_seconds: Annotated[
        float,
        typer.Option("--drain-seconds", min=0.0, help="On SIGTERM, how long to wait for closed connections."),
    ] = 10.0,
    bot_lease_seconds: Annotated[
        float,
        typer.Option(
            "--bot-lease-seconds", min=1, max=3600,
            help="How long this process holds its tables' bots unrenewed; then another process takes them over.",
        ),
    ] = 10.0,
    allow_bot_tables: Annotated[
        bool, typer.Option("--allow-bot-tables", help="Let clients create tables with no person seat.")
    ] = False,
    max_tables_per_address: Annotated[
        int, typer.Option("--max-tables-per-address", min=0, help="Unfinished tables per client address (0: any).")
    ] = 20,
    max_open_tables: Annotated[
        int, typer.Option("--max-open-tables", min=0, help="Unfinished tables this process holds (0: any).")
    ] = 2000,
    rate: Annotated[float, typer.Option("--rate", min=0.01, help="Messages a second per connection.")] = 20.0,
    burst: Annotated[float, typer.Option("--burst", min=1, help="Messages at once per connection.")] = 40.0,
    seat_rate: Annotated[
        float, typer.Option("--seat-rate", min=0.01, help="Messages a second per seat, all its connections.")
    ] = 20.0,
    seat_burst: Annotated[float, typer.Option("--seat-burst", min=1, help="Messages at once per seat.")] = 40.0,
    address_rate: Annotated[
        float, typer.Option("--address-rate", min=0.01, help="Messages a second per client address.")
    ] = 100.0,
    address_burst: Annotated[
        float, typer.Option("--address-burst", min=1, help="Messages at once per client address.")
    ] = 400.0,
    chat_rate: Annotated[
        float, typer.Option("--chat-rate", min=0.01, help="Chat messages a second per seat (or spectators' address).")
    ] = 0.5,
    chat_burst: Annotated[float, typer.Option("--chat-burst", min=1, help="Chat messages at once per seat.")] = 5.0,
    max_depth: Annotated[
        int, typer.Option("--max-depth", min=2, max=1000, help="Deepest nesting of a client frame.")
    ] = 32,
    send_queue_bytes: Annotated[
        int, typer.Option("--send-queue-bytes", min=65536, help="Bytes queued for one connection, at most.")
    ] = 4 * 1024 * 1024,
    send_queue_frames: Annotated[
        int, typer.Option("--send-queue-frames", min=16, help="Frames queued for one connection, at most.")
    ] = 1000,
    hello_seconds: Annotated[
        float, typer.Option("--hello-seconds", min=0.1, help="Time a new connection has to send its hello.")
    ] = 10.0,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option("--forwarded-allow-ips", help="Proxies trusted to name the client (X-Forwarded-For), or *."),
    ] = None,
    session_days: Annotated[
        float, typer.Option("--session-days", min=0.001, help="Days a sign-in lasts (its session and cookie).")
    ] = 30.0,
    signin_rate: Annotated[
        float, typer.Option("--signin-rate", min=0.0001, help="Sign-ins and sign-ups a second per client address.")
    ] = 0.1,
    signin_burst: Annotated[
        float, typer.Option("--signin-burst", min=1, help="Sign-ins and sign-ups at once per client address.")
    ] = 20.0,
    smtp: Annotated[
        str | None,
        typer.Option(
            "--smtp", envvar="WARCARDS_SMTP",
            help="Mail server for turn emails: smtp://host:port, smtp+starttls://user:pass@host:587 "
            "or smtps://user:pass@host:465; none: no email. $WARCARDS_SMTP keeps a password off the command line.",
        ),
    ] = None,
    mail_from: Annotated[
        str | None, typer.Option("--mail-from", help="From address of turn emails; default warcards@ the public host.")
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option("--public-url", help="The address players open (e.g. https://cards.example.org), for email links."),
    ] = None,
) -> None:
    """Run the online server: lobby, tables, seats, bots and spectators (docs/server.md; its limits:
    "Limits")."""
    try:
        from warcards.server import serve as run_server
        from warcards.server.config import ServerConfig
    except ModuleNotFoundError as error:
        raise CommandLineError(
            f"warcards serve needs the server extra ({error.name} is missing): pip install 'warcards[server]'"
        ) from None
    config = ServerConfig(
        origins=tuple(allow_origin or ()), rate=rate, burst=burst, seat_rate=seat_rate, seat_burst=seat_burst,
        address_rate=address_rate, address_burst=address_burst, max_depth=max_depth,
        chat_rate=chat_rate, chat_burst=chat_burst,
        send_queue_bytes=send_queue_bytes, send_queue_frames=send_queue_frames,
        max_tables_per_address=max_tables_per_address, max_open_tables=max_open_tables,
        allow_bot_tables=allow_bot_tables, hello_seconds=hello_seconds, forwarded_allow_ips=forwarded_allow_ips,
        idle_minutes=idle_minutes, bot_lease_seconds=bot_lease_seconds,
        sweep_seconds=sweep_seconds, drain_seconds=drain_seconds, session_days=session_days,
        signin_rate=signin_rate, signin_burst=signin_burst,
        smtp=smtp, mail_from=mail_from, public_url=public_url,
    )
    from warcards.server.mail import mail_settings

    mail_settings(config)  # a bad --smtp, --mail-from or --public-url is refused before anything starts
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else f"[{host}]" if ":" in host else host
    typer.echo(f"warcards is serving at http://{shown}:{port}/ — open it in a browser (Ctrl+C stops it)")
    run_server(host, port, database, config)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"warcards {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
    debug: Annotated[
        bool, typer.Option("--debug", help=f"Show the traceback of an internal error (or set {DEBUG_ENV}=1).")
    ] = False,
) -> None:
    ctx.meta["warcards.debug"] = debug


def _register_plugins() -> None:
    # The arena (tournaments, balance) adds its commands when it is installed.
    try:
        module = importlib.import_module("warcards.cli.arena_commands")
    except ModuleNotFoundError as error:
        if error.name != "warcards.cli.arena_commands":
            raise
        return
    module.register(app)


_register_plugins()

if __name__ == "__main__":
    sys.exit(app())
