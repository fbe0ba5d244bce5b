"""The slow-reader case of issue 32: spectators that never read, and the memory of a `warcards serve` process.

    PYTHONPATH=src python3 scripts/slow_readers.py [--spectators 10] [--players 9] [--seconds 120]

Starts `warcards serve` on a SQLite file in a temporary folder and a free loopback port, makes one Naval War
table of random bots (they play through the server's bot process), and connects `--spectators` WebSocket
spectators that send their `hello` and then read nothing (plain sockets with a 4 KiB receive buffer). It
prints the server's resident memory (VmRSS) before, at its peak while the game plays (or for `--seconds`),
and 35 s after the spectators have closed their sockets (a server that bounds its send queues closes them
4008 long before the game ends and lets their frames go). Figures, not a test: the machine's load shows
in them; the kernel's own socket buffers (not counted in RSS) absorb the first few MiB of each spectator.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from warcards.server.bench import rss_kib
from warcards.server.pgcluster import free_port


def silent_spectator(port: int, table: str) -> socket.socket:
    """A spectator that sends its `hello` and then reads nothing (its frames pile up on the server's side)."""
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.settimeout(30)
    raw.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(
        f"GET /tables/{table}/ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    answer = b""
    while not answer.endswith(b"\r\n\r\n"):
        answer += raw.recv(1)
    hello = json.dumps({"protocol": 1, "type": "hello"}).encode()
    mask = os.urandom(4)
    raw.sendall(bytes([0x81, 0x80 | len(hello)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(hello)))
    return raw


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spectators", type=int, default=10)
    parser.add_argument("--players", type=int, default=9)
    parser.add_argument("--seconds", type=float, default=120.0)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="warcards-slow-readers-"))
    port = free_port()
    command = [sys.executable, "-m", "warcards", "serve", "--port", str(port),
               "--database", f"sqlite:///{folder / 'server.sqlite3'}"]
    help_text = subprocess.run([*command[:3], "serve", "--help"], capture_output=True, text=True).stdout
    if "--allow-bot-tables" in help_text:
        command.append("--allow-bot-tables")
    with (folder / "server.log").open("wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=os.environ.copy())
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if client.get("/health").status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    raise SystemExit(f"the server did not start; its log: {folder / 'server.log'}")
                time.sleep(0.2)
            time.sleep(2)
            idle = rss_kib(process.pid)
            seats = [{"kind": "bot", "level": "random"}] * args.players
            table = client.post("/tables", json={"game": "naval-war", "options": {"players": args.players},
                                                 "seats": seats}).json()["id"]
            spectators = [silent_spectator(port, table) for _ in range(args.spectators)]
            peak = idle
            started = time.monotonic()
            status = "playing"
            while time.monotonic() - started < args.seconds:
                peak = max(peak, rss_kib(process.pid))
                status = client.get(f"/tables/{table}").json()["status"]
                if status == "finished":
                    break
                time.sleep(0.5)
            at_end = rss_kib(process.pid)
            for raw in spectators:
                raw.close()
            time.sleep(35)  # the server's sweep (every 30 s) gives freed memory back
            after = rss_kib(process.pid)
        print(f"{args.spectators} spectators that never read one {args.players}-seat Naval War table of random bots "
              f"({status} after {time.monotonic() - started - 35:.0f} s)")
        print(f"server RSS: idle {idle / 1024:.1f} MiB; peak {peak / 1024:.1f} MiB; at the end {at_end / 1024:.1f} MiB; "
              f"35 s after the spectators closed {after / 1024:.1f} MiB")
    finally:
        process.terminate()
        process.wait(30)


if __name__ == "__main__":
    main()
