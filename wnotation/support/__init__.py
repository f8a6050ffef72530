"""Support that any layer may use and that knows nothing of 7 Wonders: atomic file writes, the garbage collector's
policy for batch work, the sanitiser for text bound for a terminal, and the registry of bounded caches (memos)."""
