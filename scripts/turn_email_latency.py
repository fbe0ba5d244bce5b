"""Acts at a correspondence table while turn emails are sent: the act → ack time a player sees with an SMTP
server that accepts connections and never answers, and with one that answers (aiosmtpd in this process).

    PYTHONPATH=src python3 scripts/turn_email_latency.py [--acts 30]

Starts `warcards serve --smtp … --public-url …` on a SQLite file in a temporary folder (the helpers of
tests/server/test_mail.py), both seats held by opted-in accounts, and makes `--acts` moves, each over a fresh
connection, timing each from its `act` to its `ack`. Figures, not a test: the machine's load shows in them.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from aiosmtpd.controller import Controller
from tests.server.test_mail import (
    Inbox,
    Silent,
    add_account,
    correspondence_table,
    move,
    served_with_smtp,
)

from warcards.server.pgcluster import free_port


def timed_acts(smtp: str, acts: int) -> list[float]:
    """Milliseconds from each act to its ack at a correspondence table of a server sending through `smtp`."""
    with tempfile.TemporaryDirectory() as folder, served_with_smtp(Path(folder), smtp) as (server, store):
        accounts = [add_account(store, name, f"{name}@example.org", notify=True) for name in ("a", "b")]
        table, tokens = correspondence_table(server, store, accounts)
        return [move(server, table, tokens)[2] * 1000 for _ in range(acts)]


def show(label: str, times: list[float]) -> None:
    print(f"{label}: {len(times)} acts, act -> ack median {statistics.median(times):.1f} ms, max {max(times):.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--acts", type=int, default=30)
    acts = parser.parse_args().acts
    silent = Silent()
    try:
        show("SMTP server hanging", timed_acts(f"smtp://127.0.0.1:{silent.port}", acts))
    finally:
        silent.close()
    port = free_port()
    controller = Controller(Inbox(), hostname="127.0.0.1", port=port)
    controller.start()
    try:
        show("SMTP server answering (aiosmtpd in this process)", timed_acts(f"smtp://127.0.0.1:{port}", acts))
    finally:
        controller.stop()
    port = free_port()
    sink = subprocess.Popen(  # the same, in a process of its own: it takes no time from this client's timing
        [sys.executable, "-m", "aiosmtpd", "-n", "-l", f"127.0.0.1:{port}", "-c", "aiosmtpd.handlers.Sink"]
    )
    try:
        time.sleep(2)
        show("SMTP server answering (aiosmtpd, own process)", timed_acts(f"smtp://127.0.0.1:{port}", acts))
    finally:
        sink.terminate()
        sink.wait()


if __name__ == "__main__":
    main()
