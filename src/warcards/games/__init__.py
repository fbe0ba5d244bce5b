"""Game packages, one per game, each with the same rooms (see engine.registry)."""
