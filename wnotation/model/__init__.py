"""The model layer: what a game of 7WN is made of, before any rule is applied.

The Record (a whole game as data) and its vocabulary, the card catalogue, the deck and deal arithmetic, and the
position string's syntax. The reader builds these; the engine, the writer and every front end read them.
"""
