"""The benchmark corpora: seeded bot-played 7WN games (one big file and one JSON file per game) and a PGN corpus of
random legal chess games holding exactly as many plies as the 7WN corpus holds actions.

Nothing here is timed. Generation runs in a process pool; both corpora are deterministic in their seed. The chess
games use Python's :mod:`random` (they are a yardstick, not a 7WN deal, so SM64-FY is not needed).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
from dataclasses import asdict, dataclass
from pathlib import Path

#: Seeds of the warm-up games (not in the corpus): parser construction, catalogue and caches before timing.
WARM_SEED = 1_000_000
WARM_GAMES = 8
CHESS_SALT = 0x7C4E55


@dataclass
class Corpus:
    """Where the files are and what they hold (written to ``manifest.json`` next to them)."""

    root: str
    games: int
    seed: int
    actions: int  # one seat's play in one turn (a pick is a clause of its action, not an action)
    picks: int  # Halikarnassos' builds from the discard pile, for reference
    players: dict  # player count -> games
    wn_bytes: int  # size of games.7wn
    json_bytes: int  # total size of the per-game JSON files
    chess_games: int
    chess_plies: int
    pgn_bytes: int

    @property
    def wn(self) -> Path:
        return Path(self.root) / "games.7wn"

    @property
    def warm(self) -> Path:
        return Path(self.root) / "warm.7wn"

    @property
    def json_dir(self) -> Path:
        return Path(self.root) / "json"

    @property
    def wn_dir(self) -> Path:
        """The same games, one .7wn file each (for ``wnotation check DIR --jobs N``, which works per file)."""
        return Path(self.root) / "7wn"

    @property
    def pgn(self) -> Path:
        return Path(self.root) / "games.pgn"

    @property
    def warm_pgn(self) -> Path:
        return Path(self.root) / "warm.pgn"

    def save(self) -> None:
        (Path(self.root) / "manifest.json").write_text(json.dumps(asdict(self), indent=1))

    @classmethod
    def load(cls, root: str | os.PathLike[str]) -> "Corpus":
        data = json.loads((Path(root) / "manifest.json").read_text())
        data["root"] = str(root)
        return cls(**data)


def game_spec(seed: int) -> tuple[int, str]:
    """Player count (3..7, cycling) and bot (alternating random and greedy) of the game with this seed."""
    return 3 + seed % 5, ("random", "greedy")[seed % 2]


def _play(seed: int) -> tuple[int, str, str, int, int, int]:
    from wnotation.engine.bot import play_game
    from wnotation.notation import to_json, write

    players, bot = game_spec(seed)
    record = play_game(players, seed, bot=bot)
    actions = sum(len(t.actions) for t in record.turns)
    picks = sum(1 for t in record.turns for a in t.actions if a.pick is not None)
    return seed, write(record), to_json(record), players, actions, picks


def _chess_game(args: tuple[int, int]) -> tuple[str, int]:
    """A random legal game of at most ``plies`` plies (it may end sooner by mate, stalemate or a draw rule),
    as PGN text, and its length."""
    import chess
    import chess.pgn

    index, plies = args
    rng = random.Random(CHESS_SALT * 1_000_003 + index)
    board = chess.Board()
    for _ in range(plies):
        if board.is_game_over(claim_draw=False):
            break
        board.push(rng.choice(list(board.legal_moves)))
    game = chess.pgn.Game.from_board(board)
    game.headers["Event"] = "wnotation benchmark (random legal moves)"
    game.headers["Site"] = "?"
    game.headers["Date"] = "????.??.??"
    game.headers["Round"] = str(index + 1)
    game.headers["White"] = "Random A"
    game.headers["Black"] = "Random B"
    exporter = chess.pgn.StringExporter(headers=True, variations=True, comments=True)
    return game.accept(exporter) + "\n\n", len(board.move_stack)


def _chess_corpus(path: Path, lengths: list[int], pool) -> tuple[int, int, int]:
    """Write random chess games whose ply counts follow ``lengths`` (one chess game per 7WN game, the same number
    of plies as that game has actions; a game that ends early passes its shortfall on) to ``path``, so that the
    total number of plies equals ``sum(lengths)`` exactly. Returns (games, plies, bytes)."""
    target = sum(lengths)
    games = plies = size = 0
    queue = list(lengths)
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        while plies < target:
            batch = [(games + k, n) for k, n in enumerate(queue)]
            queue = []
            for (_index, want), (text, got) in zip(batch, pool.imap(_chess_game, batch, chunksize=8)):
                out.write(text)
                size += len(text.encode("utf-8"))
                games += 1
                plies += got
                if got < want:
                    queue.append(want - got)  # played in a further game
    return games, plies, size


def _warm_pgn(path: Path) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        for k in range(WARM_GAMES):
            out.write(_chess_game((10_000_000 + k, 80))[0])


def generate(root: str | os.PathLike[str], games: int, seed: int = 0, jobs: int = 2, log=print) -> Corpus:
    """Generate both corpora under ``root`` (seeds ``seed .. seed+games-1``) and return their :class:`Corpus`."""
    root = Path(root)
    (root / "json").mkdir(parents=True, exist_ok=True)
    (root / "7wn").mkdir(parents=True, exist_ok=True)
    players: dict[str, int] = {}
    actions = picks = wn_bytes = json_bytes = 0
    lengths = []
    ctx = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    with ctx.Pool(jobs) as pool:
        with open(root / "games.7wn", "w", encoding="utf-8", newline="\n") as out:
            for k, (s, text, doc, n, a, p) in enumerate(pool.imap(_play, range(seed, seed + games), chunksize=4)):
                if k:
                    out.write("\n")
                out.write(text)
                wn_bytes += len(text.encode("utf-8")) + (1 if k else 0)
                data = doc.encode("utf-8")
                (root / "json" / f"{s:07d}.json").write_bytes(data)
                (root / "7wn" / f"{s:07d}.7wn").write_text(text, encoding="utf-8")
                json_bytes += len(data)
                players[str(n)] = players.get(str(n), 0) + 1
                actions += a
                picks += p
                lengths.append(a)
                if log and (k + 1) % 500 == 0:
                    log(f"  {k + 1}/{games} games")
        warm = pool.map(_play, range(WARM_SEED, WARM_SEED + WARM_GAMES))
        (root / "warm.7wn").write_text("\n".join(w[1] for w in warm), encoding="utf-8")
        chess_games, chess_plies, pgn_bytes = _chess_corpus(root / "games.pgn", lengths, pool)
    _warm_pgn(root / "warm.pgn")
    corpus = Corpus(str(root), games, seed, actions, picks, players, wn_bytes, json_bytes, chess_games, chess_plies,
                    pgn_bytes)
    corpus.save()
    return corpus


def repeat_file(src: Path, dst: Path, games: int, per_copy: int) -> int:
    """Write ``dst`` as ``src`` repeated until it holds ``games`` games (``per_copy`` games per copy; the last copy
    is whole, so the result may hold a few more). Returns the number of games written."""
    text = src.read_text(encoding="utf-8")
    copies = -(-games // per_copy)
    with open(dst, "w", encoding="utf-8", newline="\n") as out:
        for k in range(copies):
            if k:
                out.write("\n")
            out.write(text)
    return copies * per_copy


def game_file(root: Path, games: int, start: int = 0) -> tuple[Path, int]:
    """One 7WN file of ``games`` bot-played games (3-7 players in turn, random and greedy bots alternating), and
    its number of actions: the export and stats benchmarks' corpus."""
    from wnotation import write
    from wnotation.engine.bot import play_game

    path = root / f"corpus-{games}.7wn"
    actions = 0
    with open(path, "w", encoding="utf-8") as out:
        for k in range(start, start + games):
            record = play_game(3 + k % 5, 7000 + k, "random" if k % 2 else "greedy")
            actions += sum(len(t.actions) for t in record.turns)
            out.write(("\n" if k > start else "") + write(record))
    return path, actions
