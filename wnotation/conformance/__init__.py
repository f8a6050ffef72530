"""The conformance kit (spec/conformance.md): vectors generated from what the project proves
(:mod:`.vectors`), the reference answers (:mod:`.answer`) served by a small adapter (:mod:`.adapter`,
``python -m wnotation.conformance.adapter``), and the runner that feeds the vectors to any engine's adapter and
compares its answers (:mod:`.runner`, ``wnotation conformance run -- COMMAND…``)."""

from .vectors import AREAS, VECTORS_VERSION

__all__ = ["AREAS", "VECTORS_VERSION"]
