"""The `warcards` command: play, simulate, bench, replay, scenario, rules, games (and arena commands)."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from warcards import __version__
from warcards.bots import agent_names
from warcards.cli.options import game_from_flags
from warcards.engine.errors import WarcardsError
from warcards.engine.registry import games, load_game, option_specs

app = typer.Typer(
    name="warcards",
    help="Play, simulate and study four World War 2 card games: "
    "Race to Messina, Med Sirocco, Naval War and Cards of War.",
    no_args_is_help=True,
    add_completion=False,
)
console = Console()

GameArg = Annotated[str, typer.Argument(help="Game id (see `warcards games`).")]
VariantOpt = Annotated[str | None, typer.Option("--variant", help="The game's variant option.")]
PlayersOpt = Annotated[int | None, typer.Option("--players", help="Number of players.")]
CardsOpt = Annotated[str | None, typer.Option("--cards", help="Your own card data file (same format).")]
OptionOpt = Annotated[list[str] | None, typer.Option("--option", "-o", help="Any game option as key=value.")]
SeedOpt = Annotated[int, typer.Option("--seed", help="Master seed: same seed, same games.")]


def _check_game(game_id: str) -> None:
    if game_id not in games():
        raise typer.BadParameter(f"unknown game {game_id!r}; games are: {', '.join(games())}")


def _check_bot(name: str) -> str:
    if name not in agent_names():
        raise typer.BadParameter(f"unknown bot {name!r}; bots are: {', '.join(agent_names())}")
    return name


@app.command("games")
def list_games() -> None:
    """List the games and their options."""
    for game_id in games():
        table = Table(title=game_id, show_lines=False)
        table.add_column("option")
        table.add_column("default")
        table.add_column("allowed")
        table.add_column("meaning")
        for spec in option_specs(game_id):
            table.add_row(spec.name, repr(spec.default), spec.describe_allowed(), spec.doc)
        console.print(table)


@app.command()
def play(
    game_id: GameArg,
    variant: VariantOpt = None,
    players: PlayersOpt = None,
    cards: CardsOpt = None,
    option: OptionOpt = None,
    seat: Annotated[str, typer.Option("--seat", help="Your seat, by name or number.")] = "0",
    vs: Annotated[str, typer.Option("--vs", help="The bot in every other seat.")] = "heuristic",
    seed: SeedOpt = 0,
) -> None:
    """Play a game in the terminal against bots."""
    from warcards.cli.play import TerminalGame

    _check_game(game_id)
    game = game_from_flags(game_id, variant, players, cards, option or [])
    try:
        seat_number = game.parse_seat(seat)
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None
    session = TerminalGame(game, seat_number, _check_bot(vs), seed, console, console.input)
    session.run()


@app.command()
def simulate(
    game_id: GameArg,
    variant: VariantOpt = None,
    players: PlayersOpt = None,
    cards: CardsOpt = None,
    option: OptionOpt = None,
    n: Annotated[int, typer.Option("-n", "--games", min=1, help="Number of games.")] = 1000,
    bots: Annotated[
        str, typer.Option("--bots", help="Bots by seat, comma-separated (the last repeats).")
    ] = "heuristic,random",
    seed: SeedOpt = 0,
    jobs: Annotated[int, typer.Option("--jobs", min=1, help="Worker processes.")] = 1,
    out: Annotated[Path | None, typer.Option("--out", help="Write every game record as JSONL.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Simulate many seeded games between bots: win rates with 95% intervals, mean length."""
    from warcards.simulate import run_games, summarize

    _check_game(game_id)
    game = game_from_flags(game_id, variant, players, cards, option or [])
    names = [_check_bot(b.strip()) for b in bots.split(",") if b.strip()]
    seat_bots = (names + [names[-1]] * game.num_players)[: game.num_players]
    handle = out.open("w") if out else None
    try:
        with Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            disable=as_json,
        ) as progress:
            task = progress.add_task(f"{game_id} {game.options.get('variant', '')}".strip(), total=n)

            def record_done(record: Any) -> None:
                progress.advance(task)
                if handle:
                    handle.write(record.model_dump_json() + "\n")

            records = run_games(game_id, game.options, seat_bots, n, seed, jobs, record_done)
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
    table = Table(title=f"{game_id} {summary.games} games, seed {seed}")
    for column in ("seat", "bot", "wins", "win rate", "95% interval", "mean return"):
        table.add_column(column, justify="right" if column != "seat" else "left")
    for s in summary.seats:
        table.add_row(
            s.seat_name,
            s.bot,
            f"{s.wins:g}",
            f"{s.win_rate:.3f}",
            f"[{s.low:.3f}, {s.high:.3f}]",
            f"{s.mean_return:.3f}",
        )
    console.print(table)
    console.print(f"mean game length: {summary.mean_length:.1f} actions")


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
) -> None:
    """Random-playout speed per game and variant: games/s, actions/s, clone()/s, determinize()/s."""
    from warcards.bench import bench_config, bench_configs, hearts_game

    for game_id in game or []:
        _check_game(game_id)
    hearts = None
    if compare:
        try:
            hearts = hearts_game()
        except ImportError as error:
            raise typer.BadParameter(str(error)) from None
    if search is not None and search not in ("ismcts", "easy", "medium", "hard"):
        raise typer.BadParameter(
            f"--search takes a search bot level: ismcts, easy, medium or hard, not {search!r}"
        )
    rows = [bench_config(g, o, seconds, seed, hearts, search) for g, o in bench_configs(game)]
    if as_json:
        print(json.dumps([row.as_dict() for row in rows], indent=2))
        return
    table = Table(title=f"warcards {__version__} random playouts, one process")
    for column in (
        "game",
        "options",
        "games/s",
        "actions/s",
        "clone/s",
        "determinize/s",
        "actions/game",
        "× hearts",
        f"{search} sims/s" if search else "",
        f"{search} s/decision" if search else "",
    ):
        table.add_column(column, justify="left" if column in ("game", "options") else "right")
    for row in rows:
        options = ", ".join(
            f"{k}={v}"
            for k, v in row.options.items()
            if k in ("variant", "players", "length") and v is not None
        )
        ratio = f"{row.hearts_ratio:.2f}" if row.hearts_ratio is not None else "-"
        sims = f"{row.search_simulations_per_s:,.0f}" if row.search_simulations_per_s is not None else ""
        per_decision = (
            f"{row.search_seconds_per_decision:.2f}" if row.search_seconds_per_decision is not None else ""
        )
        table.add_row(
            row.game,
            options,
            f"{row.games_per_s:,.0f}",
            f"{row.actions_per_s:,.0f}",
            f"{row.clones_per_s:,.0f}",
            f"{row.determinize_per_s:,.0f}",
            f"{row.mean_length:.0f}",
            ratio,
            sims,
            per_decision,
        )
    console.print(table)


@app.command()
def replay(file: Annotated[Path, typer.Argument(help="A JSON record or a JSONL file of records.")]) -> None:
    """Re-validate game records: every action legal, the returns the same."""
    from pydantic import ValidationError

    from warcards.match import MatchRecord
    from warcards.match import replay as replay_record

    try:
        lines = [line for line in file.read_text().splitlines() if line.strip()]
    except OSError as error:
        raise typer.BadParameter(f"cannot read {file}: {error}") from None
    if len(lines) > 1 or (lines and not lines[0].lstrip().startswith("[")):
        texts = lines
    else:
        texts = [json.dumps(item) for item in json.loads(lines[0])] if lines else []
    bad = 0
    for number, text in enumerate(texts, start=1):
        try:
            replay_record(MatchRecord.model_validate_json(text))
        except (ValidationError, ValueError) as error:
            bad += 1
            console.print(f"[red]record {number}: {error}[/red]")
    console.print(f"{len(texts) - bad} of {len(texts)} records replay exactly")
    if bad:
        raise typer.Exit(1)


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
        except WarcardsError as error:
            print(json.dumps({"file": str(file), "error": str(error)}))
            status = 2
            continue
        print(json.dumps({"file": str(file), **result.model_dump()}))
        if not result.passed and status == 0:
            status = 1
    raise typer.Exit(status)


@app.command()
def rules(game_id: GameArg) -> None:
    """Print a game's rulings (its RULES.md)."""
    _check_game(game_id)
    path = load_game(game_id).rulings_path()
    if path is None or not path.exists():
        console.print(f"{game_id} has no rulings file.")
        raise typer.Exit(1)
    console.print(Markdown(path.read_text()))


@app.callback()
def main(
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.")] = False,
) -> None:
    if version:
        print(__version__)
        raise typer.Exit()


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
