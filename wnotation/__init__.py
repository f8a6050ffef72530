"""wnotation: the 7WN notation for games of 7 Wonders (2nd edition) and the engine that replays it."""

__version__ = "0.1.0"
