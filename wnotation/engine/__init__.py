"""The replay engine: state, events, rules, trade solver and scoring, pure functions over frozen values."""
