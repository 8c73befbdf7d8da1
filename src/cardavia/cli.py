"""``cardavia``: the commands. Each imports what it needs when it runs, so that the help and
the quick commands start at once (the site, the solver and the database are loaded only by the
commands that use them).

- ``cardavia play``: you sit South; your partner North and the opponents East and West are
  computer players (:mod:`cardavia.terminal`).
- ``cardavia replay FILE``: a deal or match record, trick by trick, with the scores.
- ``cardavia query``: JSON questions on stdin, one JSON answer per line (:mod:`cardavia.query`).
- ``cardavia serve``, ``db upgrade``, ``ai-worker``: the site, its database, its AI workers.
- ``cardavia arena``, ``analyse``, ``verify-deal``, ``fair-play``: measures and checks.
"""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from cardavia.ai.levels import find_player, player_levels
from cardavia.belote import (
    PRESETS,
    Card,
    Record,
    RecordError,
    Rules,
    Seat,
    card_code,
    check_deal,
    find_rules,
    parse_card,
    read_record,
)

app = typer.Typer(
    help="Cardavia: belote, played and taught.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _rules_or_exit(name: str) -> Rules:
    try:
        return find_rules(name)
    except ValueError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None


@app.command()
def play(
    rules: Annotated[str, typer.Option(help=f"The rule set: {', '.join(PRESETS)}.")] = "cardavia",
    level: Annotated[
        str, typer.Option(help=f"The computer players: {', '.join(player_levels())}.")
    ] = "club",
    seed: Annotated[
        int | None, typer.Option(help="Shuffle with this seed, to play the same cards again.")
    ] = None,
) -> None:
    """Play belote as South, with a computer partner against two computer opponents."""
    chosen = _rules_or_exit(rules)
    try:
        players = [find_player(level) for _ in Seat]
    except ValueError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    from cardavia.terminal import play_in_terminal

    raise typer.Exit(play_in_terminal(chosen, players, seed=seed))


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A record: the text form or its JSON.")],
) -> None:
    """Print a recorded deal or match trick by trick, with the score of each deal."""
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        typer.echo(f"error: cannot read {file}: {error}", err=True)
        raise typer.Exit(1) from None
    try:
        record = Record.from_json(text) if text.lstrip().startswith("{") else read_record(text)
        match = record.replay()
    except RecordError as error:
        typer.echo(f"error: {file}: {error}", err=True)
        raise typer.Exit(1) from None
    from cardavia.terminal import print_match

    print_match(match)


@app.command()
def query() -> None:
    """Answer rules questions: JSON lines on stdin, one JSON answer a line on stdout.

    Queries: legal, trick, announcements, solve, playouts, decide (see cardavia.query).
    """
    from cardavia.query import serve

    try:
        serve(sys.stdin, sys.stdout)
    except BrokenPipeError:
        # The reader went away (``cardavia query | head -1``): stop quietly.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, io.UnsupportedOperation):
            pass
        raise typer.Exit(1) from None


@app.command()
def arena(
    a: Annotated[str, typer.Option("--a", help="The level measured.")] = "club",
    b: Annotated[str, typer.Option("--b", help="The level it plays against.")] = "beginner",
    preset: Annotated[str, typer.Option(help=f"The rule set: {', '.join(PRESETS)}.")] = "cardavia",
    deals: Annotated[int, typer.Option(help="Duplicate pairs to play (each deck twice).")] = 100,
    seed: Annotated[int, typer.Option(help="Everything is drawn from it.")] = 1,
    save: Annotated[
        Path | None, typer.Option(help="Keep the run in this file and resume it from there.")
    ] = None,
    play_only: Annotated[
        bool,
        typer.Option("--play-only", help="The card play alone: the club player bids for everyone."),
    ] = False,
    processes: Annotated[
        int,
        typer.Option(help="Pairs played side by side, one process each (the same figures).", min=1),
    ] = 1,
) -> None:
    """Duplicate deals between two levels (or versions: expert-2026-12, expert-next): the
    mean margin per deal with its 95% confidence interval (deal score; card points with
    --play-only), the contracts made, and the time per decision."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from cardavia.ai.arena import ArenaResult, run_arena

    _rules_or_exit(preset)
    resume = None
    if save is not None and save.exists():
        resume = ArenaResult.load(save)
        run = (resume.a, resume.b, resume.preset, resume.seed, resume.play_only)
        if run != (a, b, preset, seed, play_only):
            typer.echo(f"error: {save} holds another run", err=True)
            raise typer.Exit(2)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, console=Console(stderr=True)) as progress:
        task = progress.add_task(f"{a} vs {b}", total=deals)

        def advance(result: ArenaResult) -> None:
            progress.update(task, completed=len(result.margins), description=f"{result.mean:+.1f}")
            if save is not None:
                result.save(save)

        try:
            result = run_arena(
                a, b, preset=preset, pairs=deals, seed=seed, resume=resume, progress=advance,
                play_only=play_only, processes=processes,
            )  # fmt: skip
        except ValueError as error:
            typer.echo(f"error: {error}", err=True)
            raise typer.Exit(2) from None
    typer.echo(result.summary())


@app.command("serve")
def serve_site(
    host: Annotated[str, typer.Option(help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="The port to listen on.")] = 8000,
    workers: Annotated[
        int, typer.Option(help="Web processes (several need CARDAVIA_REDIS_URL: docs/deploy.md).")
    ] = 1,
) -> None:
    """Run the website: the table and the rules pages (CARDAVIA_DATABASE_URL: where games are
    saved, SQLite cardavia.db by default), in one process or several, each with the same
    limits (cardavia.web.server); their metrics summed on CARDAVIA_METRICS_PORT when set
    (cardavia.metrics)."""
    import uvicorn

    from cardavia.metrics import metrics_port, serve_metrics
    from cardavia.web.server import server_options

    _upgrade_database(on_failure="the site serves it as it is")
    if (port_of_metrics := metrics_port()) is not None:
        serve_metrics(port_of_metrics)
    uvicorn.run(**server_options(host, port, workers))


database = typer.Typer(
    help="The database of the site (CARDAVIA_DATABASE_URL, SQLite cardavia.db by default).",
    no_args_is_help=True,
)
app.add_typer(database, name="db")


@database.command("upgrade")
def upgrade_database() -> None:
    """Bring the database's schema to the latest revision (cardavia serve does it on start;
    a database made before migrations is recognised by its columns first)."""
    if not _upgrade_database(on_failure=None):
        raise typer.Exit(1)


def _upgrade_database(*, on_failure: str | None) -> bool:
    """Upgrade the database (:func:`cardavia.store.upgrade_database`), saying what was done
    on stderr; a failure said there too (``on_failure``: what happens next) and answered
    false."""
    from cardavia.store import StoreUnavailableError
    from cardavia.store import upgrade_database as upgrade

    try:
        done = upgrade()
    except StoreUnavailableError as error:
        typer.echo(
            f"the database was not upgraded: {error}" + (f"; {on_failure}" if on_failure else ""),
            err=True,
        )
        return False
    if done.before == done.after:
        typer.echo(f"the database is at revision {done.after}", err=True)
    else:
        typer.echo(f"the database upgraded from {done.before or 'none'} to {done.after}", err=True)
    return True


@app.command("ai-worker")
def ai_worker(
    redis_url: Annotated[
        str, typer.Option(help="The Redis URL of the queue (default: $CARDAVIA_REDIS_URL).")
    ] = "",
    jobs: Annotated[int, typer.Option(help="Decisions at once (default: the cores).")] = 0,
) -> None:
    """Run an AI worker: decide the computer players' moves from the queue on Redis
    (cardavia.ai.worker), so that AI capacity grows with the workers started."""
    from cardavia.ai.worker import main as worker_main

    worker_main([*(["--redis-url", redis_url] if redis_url else []), "--jobs", str(jobs)])


# -- learning from a deal: its analysis, and checking its shuffle (issue 12) -----------------


def _record_or_exit(file: Path) -> Record:
    """The record in ``file`` (text or JSON), or a message and exit code 1."""
    try:
        text = file.read_text(encoding="utf-8")
        return Record.from_json(text) if text.lstrip().startswith("{") else read_record(text)
    except (OSError, UnicodeDecodeError, RecordError) as error:
        typer.echo(f"error: {file}: {error}", err=True)
        raise typer.Exit(1) from None


@app.command()
def analyse(
    file: Annotated[Path, typer.Argument(help="A record: the text form or its JSON.")],
    deal: Annotated[int, typer.Option(help="Which deal of the record, from 1 (the last: 0).")] = 0,
    seed: Annotated[
        int, typer.Option(help="The worlds of the seat-view light are drawn from it.")
    ] = 0,
    bidding: Annotated[
        str, typer.Option(help=f"The level that reviews the bidding: {', '.join(player_levels())}.")
    ] = "club",
) -> None:
    """What each card of a finished deal cost in deal score, double-dummy and from its seat's
    view (mistakes and bad luck), the moments of the deal, and the bidding."""
    from cardavia.ai.analysis import analyse as analyse_deal
    from cardavia.ai.analysis import text_report

    record = _record_or_exit(file)
    try:
        index = deal - 1
        if deal == 0:
            index, note = _last_finished_deal(record)
            if note:
                typer.echo(note)
        analysis = analyse_deal(record, deal=index, seed=seed, bidding_level=bidding)
    except (ValueError, IndexError, RecordError) as error:
        typer.echo(f"error: {file}: {error}", err=True)
        raise typer.Exit(1) from None
    typer.echo(text_report(analysis))


def _last_finished_deal(record: Record) -> tuple[int, str]:
    """The index of the record's last deal played to its end, and a note when that is not
    the last deal (a match saved with its last deal unfinished): the note says which is
    analysed. Without such a deal, the last one (whose analysis then says why it cannot)."""
    deals = record.replay().deals
    if deals[-1].is_over:
        return -1, ""
    finished = [n for n, state in enumerate(deals) if state.is_over and state.contract is not None]
    if not finished:
        return -1, ""
    return finished[-1], (
        f"Deal {len(deals)} is unfinished: deal {finished[-1] + 1} is analysed, "
        "the last played to its end.\n"
    )


@app.command("verify-deal")
def verify_deal(
    seed: Annotated[str, typer.Argument(help="The seed revealed after the deal (64 hex digits).")],
    commitment: Annotated[
        str, typer.Argument(help="The SHA-256 hash shown before the deal (64 hex digits).")
    ],
    deck: Annotated[
        str | None, typer.Option(help='The deck dealt, as a record writes it: "7S 8S ...".')
    ] = None,
    record: Annotated[
        Path | None, typer.Option(help="A record whose deal's deck is checked.")
    ] = None,
    deal: Annotated[int, typer.Option(help="Which deal of the record, from 1 (the last: 0).")] = 0,
) -> None:
    """Check a deal's shuffle (docs/fair-deals.md): the seed's hash is the one shown before
    the deal, and the deck is the one the seed gives."""
    dealt: list[Card] | None = None
    if deck is not None:
        try:
            dealt = [parse_card(code) for code in deck.replace(",", " ").split()]
        except ValueError as error:
            typer.echo(f"error: {error}", err=True)
            raise typer.Exit(2) from None
    elif record is not None:
        deals = _record_or_exit(record).deals
        if not -len(deals) <= deal - 1 < len(deals):
            typer.echo(f"error: {record} has {len(deals)} deals", err=True)
            raise typer.Exit(2)
        dealt = list(deals[deal - 1].deck)
    check = check_deal(seed, commitment, dealt)
    messages = {
        "bad_seed": "the seed is not 64 hexadecimal digits",
        "bad_hash": "the hash is not 64 hexadecimal digits",
        "seed_mismatch": "the seed's SHA-256 is not the hash shown before the deal",
        "deck_mismatch": "the deck dealt is not the deck the seed gives",
    }
    if check.deck:
        typer.echo("Deck: " + " ".join(card_code(c) for c in check.deck))
    if check.problem is not None:
        typer.echo(f"FAILED: {messages[check.problem]}")
        raise typer.Exit(1)
    typer.echo("OK: the seed matches the hash" + (" and the deck dealt" if dealt else ""))


# -- the tournaments' fair-play screen (issue 22) -----------------------------------------


@app.command("fair-play")
def fair_play(
    report: Annotated[
        Path, typer.Argument(help="The file the report is written to: JSON if it ends in .json.")
    ],
    tournament: Annotated[
        list[str] | None, typer.Option(help="A tournament's id (repeat it; none: every one).")
    ] = None,
    days: Annotated[
        int, typer.Option(help="Only the tournaments opened in the last DAYS days (0: all).")
    ] = 0,
    database_url: Annotated[
        str, typer.Option(help="The database (default: $CARDAVIA_DATABASE_URL).")
    ] = "",
    worlds: Annotated[
        int, typer.Option(help="Worlds of a card's seat view, at most (0: the screen's).")
    ] = 0,
    nodes: Annotated[
        int, typer.Option(help="Solver nodes of a card's seat view (0: the screen's).")
    ] = 0,
) -> None:
    """Screen the tournament deals for play improbably close to double-dummy: the players far
    outside the field are listed for a person to review, never accused
    (docs/tournament-robots.md)."""
    from datetime import UTC, datetime, timedelta

    from cardavia.store.db import GameStore
    from cardavia.store.db import database_url as chosen_database
    from cardavia.tournaments.fairplay import (
        NODE_BUDGET,
        WORLDS,
        report_json,
        report_text,
        screen,
    )

    since = datetime.now(UTC) - timedelta(days=days) if days > 0 else None
    store = GameStore(chosen_database(database_url or None), read_only=True)
    try:
        found = screen(
            store,
            tournaments=tournament or (),
            since=since,
            worlds=worlds or WORLDS,
            node_budget=nodes or NODE_BUDGET,
        )
    finally:
        store.close()
    as_json = report.suffix.lower() == ".json"
    report.write_text(report_json(found) if as_json else report_text(found), encoding="utf-8")
    typer.echo(
        f"{found.deals} deals screened, {len(found.listed)} players listed for review: {report}"
    )


if __name__ == "__main__":
    app()
