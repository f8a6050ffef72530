"""The engine's exception. A module of its own so that a compiled build keeps it a Python class: mypyc compiles
no subclass of a built-in exception but ``Exception`` itself, and this one is a ``RuntimeError``."""

from ..errors import WnotationError


class IntegrityError(WnotationError, RuntimeError):
    """An event arrived at a step where it cannot happen: a bug in whoever produced the events."""
