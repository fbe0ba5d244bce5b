"""The package version, in a module of its own so that any module may import it without importing the
package (`warcards/__init__` imports `match`, which records the version: no cycle)."""

__version__ = "0.1.0"
