"""Showing a game's texts (its guide and rulings, read by `warcards.engine.guides`) on the terminal: long
texts go through the pager on a terminal, and are printed whole otherwise.
"""

from __future__ import annotations

from rich.console import Console
from rich.markdown import Markdown


def show_text(console: Console, markdown: str, page: bool | None = None) -> None:
    """Print Markdown; through the pager when `page` (by default: when the console is a terminal and the
    text is taller than it)."""
    if page is None:
        page = console.is_terminal and markdown.count("\n") > console.height
    if page:
        with console.pager():
            console.print(Markdown(markdown))
    else:
        console.print(Markdown(markdown))
