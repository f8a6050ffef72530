"""What the language server knows about a 7WN document, as plain values: no pygls, no protocol types.

A document is cut into games at the reader's boundaries (:func:`~wnotation.diagnostics.game_pieces`); each game is
checked by the diagnostics layer (:func:`~wnotation.diagnostics.check_piece`) and the answer is kept by the game's
text (:class:`GameCache`), so a keystroke re-checks only the game it changed. Everything the server answers is
computed here from those checks, the Record and its Replay: the diagnostics with their ranges and related
locations, completions from the engine's legal actions, hovers, code-action edits, symbols and folding ranges.

Positions are 0-based ``(line, column)`` pairs with the column counted in code points, as Python indexes a
``str``; the server converts them to the client's units. Nothing here decides a rule: the diagnostics layer
reports, the engine answers what is legal, the catalogue describes the cards.

One module per job, each importing only those before it: :mod:`.text` (where tokens, names, actions and labels
end on a line), :mod:`.document` (the document's games, their cached checks, the placed diagnostics),
:mod:`.outline` (symbols and folding), :mod:`.cursor` (the turn line under the cursor and the position it is
played from), :mod:`.completion`, :mod:`.hover`, :mod:`.fixes` (code actions) and :mod:`.formatting`. This
package re-exports their names, so ``wnotation.lsp.analysis.X`` is what it was when it was one module.
"""

from __future__ import annotations

# The names of __all__, then (``as`` themselves: re-exported, not in __all__) the other public names of the one
# module this package was, and the tag list tests/test_header_tags.py checks against the tag table.
from .completion import Completion, completions
from .document import DocumentAnalysis, GameCache, GameView, LspDiagnostic, Related, analyse, docs_href
from .fixes import Fix, code_fixes
from .formatting import format_games
from .hover import hover
from .outline import Fold, Symbol, folding, symbols
from .text import Edit

from .completion import OFFERED_TAGS as OFFERED_TAGS
from .cursor import TurnContext as TurnContext, turn_context as turn_context, turn_start as turn_start
from .document import CACHE_GAMES as CACHE_GAMES, CACHE_REPLAYS as CACHE_REPLAYS, Piece as Piece
from .document import read_record as read_record
from .text import action_end as action_end, label_at as label_at, name_end as name_end, token_end as token_end

__all__ = ["Completion", "DocumentAnalysis", "Edit", "Fix", "Fold", "GameCache", "GameView", "LspDiagnostic",
           "Related", "Symbol", "analyse", "code_fixes", "completions", "docs_href", "folding", "format_games", "hover",
           "symbols"]
