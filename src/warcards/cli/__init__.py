"""The `warcards` command line (Typer + Rich)."""
