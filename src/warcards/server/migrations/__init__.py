"""Alembic migrations of the warcards server schema (a package, so installs ship them)."""
