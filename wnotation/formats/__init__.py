"""Output formats computed from a Record or a Replay: the canonical purchase text, BG Stats JSON, the score sheet
and position rendering. Each reads the model and the engine; none is read by them."""
