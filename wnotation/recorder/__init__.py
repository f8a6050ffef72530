"""Recording a game at the table: :class:`~.session.Session` (the record being built and the engine's answers at its
position, UI-independent), :mod:`.choices` (what a seat may play, what typing means), :mod:`.header` (the roster
of a new record) and :mod:`.ui` (the prompt_toolkit front end of ``wnotation record``)."""

from .session import Question, Reply, Session

__all__ = ["Question", "Reply", "Session"]
