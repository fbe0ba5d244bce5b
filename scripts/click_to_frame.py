"""The time from a click on a move to the next frame drawn with its answer, in Chromium (issue 34's figure).

Starts `warcards serve` on a free loopback port with a throwaway SQLite file, opens the lobby in Debian's
Chromium (Playwright), starts a Cards of War game against random bots with pacing off, and for each of your
turns clicks the first move and measures, inside the page, from the click to the first animation frame after
the page has drawn the event that answers it (`body[data-event-no]` changes). Prints the median, p90 and max.

    python3 scripts/click_to_frame.py [--moves 40] [--width 1280 --height 800]
"""

from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

MEASURE = """async () => {
  const before = document.body.dataset.eventNo;
  const start = performance.now();
  document.querySelector('#moves button.move:not([disabled])').click();
  while (document.body.dataset.eventNo === before) await new Promise((r) => requestAnimationFrame(r));
  await new Promise((r) => requestAnimationFrame(r));
  return performance.now() - start;
}"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=800)
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [sys.executable, "-m", "warcards", "serve", "--port", str(port), "--database",
             f"sqlite:///{Path(folder) / 'frames.sqlite3'}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            url = f"http://127.0.0.1:{port}"
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = browser.new_page(viewport={"width": args.width, "height": args.height})
                for _ in range(100):
                    try:
                        page.goto(f"{url}/#/lobby")
                        break
                    except Exception:
                        time.sleep(0.2)
                page.evaluate("localStorage.setItem('warcards.pace', '0')")
                page.wait_for_selector("#quick-game")
                page.select_option("#quick-game", "cards-of-war")
                page.click("#quick")
                page.wait_for_url("**/#/table/*")
                times: list[float] = []
                while len(times) < args.moves:
                    try:
                        page.wait_for_selector("#moves button.move:not([disabled])", timeout=30_000)
                    except Exception:
                        break  # the game ended
                    times.append(float(page.evaluate(MEASURE)))
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    if not times:
        raise SystemExit("no move was measured")
    times.sort()
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    print(f"click -> next frame with the answer, {len(times)} moves at {args.width}x{args.height}: "
          f"median {statistics.median(times):.0f} ms, p90 {p90:.0f} ms, max {times[-1]:.0f} ms")


if __name__ == "__main__":
    main()
