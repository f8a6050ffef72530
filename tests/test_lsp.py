"""The language server end to end through the protocol (pytest-lsp starts ``wnotation lsp`` as a subprocess):
diagnostics appear and disappear at the right ranges as documents are opened and edited, completion at cursor
positions of the bundled replays, hover, a code action applied, formatting round trip, the outline and folding, a
large file and a file with hostile text. One server for the module, each test with documents of its own."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")
pytest_lsp = pytest.importorskip("pytest_lsp")
from lsprotocol import types as t  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
REPLAYS = ROOT / "replays"
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(
    server_command=[sys.executable, "-m", "wnotation", "lsp", "--debounce", "0.05"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(t.InitializeParams(
        capabilities=pytest_lsp.client_capabilities("visual-studio-code"),
        initialization_options={"docsUrl": "https://docs.example/wnotation"}))
    yield
    await lsp_client.shutdown_session()


_count = [0]


def _uri(name: str) -> str:
    _count[0] += 1
    return f"file:///work/{_count[0]}-{name}"


async def _published(client: LanguageClient, uri: str) -> None:
    """Wait (30 s at most) until the server has published diagnostics for ``uri``."""
    async def wait() -> None:
        while uri not in client.diagnostics:
            await client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)

    await asyncio.wait_for(wait(), 30)


async def _open(client: LanguageClient, name: str, text: str) -> str:
    uri = _uri(name)
    client.diagnostics.pop(uri, None)
    client.text_document_did_open(t.DidOpenTextDocumentParams(
        text_document=t.TextDocumentItem(uri=uri, language_id="7wn", version=1, text=text)))
    await _published(client, uri)
    return uri


async def _change(client: LanguageClient, uri: str, version: int, line: int, start: int, end: int, text: str):
    client.diagnostics.pop(uri, None)
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[t.TextDocumentContentChangePartial(
            range=t.Range(start=t.Position(line=line, character=start), end=t.Position(line=line, character=end)),
            text=text)]))
    await _published(client, uri)
    return list(client.diagnostics.get(uri, []))


def _errors(found) -> list[t.Diagnostic]:
    """The errors of a publication (a game with notation errors also gets the note that it is not replayed)."""
    return [d for d in found if d.severity == t.DiagnosticSeverity.Error]


def _line_of(text: str, prefix: str) -> int:
    return next(k for k, line in enumerate(text.split("\n")) if line.startswith(prefix))


def _apply(text: str, edits: list[t.TextEdit]) -> str:
    """``edits`` applied to ``text`` (ASCII text: columns are characters), last first."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        a = offsets[e.range.start.line] + e.range.start.character
        b = offsets[e.range.end.line] + e.range.end.character
        text = text[:a] + e.new_text + text[b:]
    return text


THREE = (REPLAYS / "3p-babylon-halikarnassos-olympia.7wn").read_text(encoding="utf-8")
SEVEN = (REPLAYS / "7p-all-wonders.7wn").read_text(encoding="utf-8")


async def test_a_clean_replay_has_no_diagnostics_and_a_typo_gets_one_at_its_range(client: LanguageClient):
    uri = await _open(client, "three.7wn", THREE)
    assert list(client.diagnostics[uri]) == []
    line = _line_of(THREE, "I.3 ")
    column = THREE.split("\n")[line].index("Loom")
    found = await _change(client, uri, 2, line, column, column + 4, "Lom")
    [d] = _errors(found)
    assert d.code == "unknown-card" and d.severity == t.DiagnosticSeverity.Error
    assert (d.range.start.line, d.range.start.character, d.range.end.character) == (line, column, column + 3)
    assert d.code_description.href == "https://docs.example/wnotation/spec/7wn.html#122-the-codes"
    assert "did you mean Loom" in d.message
    found = await _change(client, uri, 3, line, column, column + 3, "Loom")
    assert found == []


async def test_every_notation_error_of_a_game_is_published_and_each_fix_removes_one(client: LanguageClient):
    """The diagnostics layer reports every notation error of a game (issue 27 item 8): the server publishes them
    all, each at its own line, and they go one by one as the typos are fixed."""
    lines = THREE.split("\n")
    rows = [_line_of(THREE, label) for label in ("I.3 ", "II.4 ", "III.2 ")]
    fixed = {}
    for row in rows:
        column = lines[row].index(" | ") + 3
        name = lines[row][column:].split(" (")[0].split(" |")[0]
        fixed[row] = (column, name)
        lines[row] = lines[row][:column] + name + "q" + lines[row][column + len(name):]
    uri = await _open(client, "typos.7wn", "\n".join(lines))
    errors = _errors(client.diagnostics[uri])
    assert [(d.code, d.range.start.line, d.range.start.character) for d in errors] == [
        ("unknown-card", row, fixed[row][0]) for row in rows]
    for version, row in enumerate(rows, start=2):
        column, name = fixed[row]
        found = await _change(client, uri, version, row, column, column + len(name) + 1, name)
        assert row not in [d.range.start.line for d in found if d.severity == t.DiagnosticSeverity.Error]
    assert found == []


async def test_a_rule_finding_has_its_rule_id_link_and_the_action_as_range(client: LanguageClient):
    line = _line_of(SEVEN, "II.4 ")
    text = SEVEN.split("\n")
    text[line] = text[line].replace("Archery Range", "Archery Range (R 2 stone)", 1)
    uri = await _open(client, "seven.7wn", "\n".join(text))
    found = client.diagnostics[uri]
    assert [d.code for d in found] == ["R-TRADE-MINIMAL"]
    d = found[0]
    assert d.code_description.href == "https://docs.example/wnotation/rules.html#rule-r-trade-minimal"
    assert (d.range.start.line, d.range.start.character) == (line, len("II.4 "))
    assert d.range.end.character == len("II.4 Archery Range (R 2 stone)")


async def test_a_second_error_of_a_seat_relates_to_its_first(client: LanguageClient):
    lines = THREE.split("\n")
    first, second = _line_of(THREE, "I.2 "), _line_of(THREE, "I.4 ")
    for k in (first, second):
        head, rest = lines[k].split(" ", 1)
        lines[k] = f"{head} Temple{rest[rest.index(' |'):]}"  # seat 1 builds an Age II card in Age I
    uri = await _open(client, "related.7wn", "\n".join(lines))
    found = [d for d in client.diagnostics[uri] if d.severity == t.DiagnosticSeverity.Error]
    assert len(found) >= 2
    later = [d for d in found if d.range.start.line == second]
    assert later and later[0].related_information
    assert later[0].related_information[0].location.range.start.line == first


async def test_completion_lists_the_seats_plays_from_the_engine_with_affordability(client: LanguageClient):
    uri = await _open(client, "complete.7wn", THREE)
    line = _line_of(THREE, "I.3 ")
    text = THREE.split("\n")[line]
    at_second = text.index("|") + 2
    for column, seat_text in ((4, "Marketplace"), (at_second, "Loom")):
        result = await client.text_document_completion_async(t.CompletionParams(
            text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=line, character=column)))
        labels = {i.label: i for i in result.items}
        assert seat_text in labels, (column, sorted(labels))
        assert labels[seat_text].detail.startswith("affordable")
        assert any(label.startswith("sell ") for label in labels)
        assert labels[seat_text].text_edit.range.start.character == column


async def test_completion_of_header_values_and_the_next_label(client: LanguageClient):
    text = SEVEN.split("\n")
    seat = _line_of(SEVEN, "[Seat2 ")
    cut = _line_of(SEVEN, "II.3 ")
    partial = "\n".join(text[:cut]) + "\n\n"
    uri = await _open(client, "header.7wn", partial)

    async def labels(line: int, column: int) -> list[str]:
        result = await client.text_document_completion_async(t.CompletionParams(
            text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=line, character=column)))
        return [i.label for i in result.items]

    wonder_at = text[seat].index('" "') + 3
    assert "Gizah" in await labels(seat, wonder_at)
    assert "night" in await labels(seat, text[seat].rindex('"'))
    assert "Elif" in await labels(seat, len('[Seat2 "'))
    assert await labels(cut, 0) == ["II.3"]


async def test_a_new_game_completes_its_first_label_and_the_dealt_hands(client: LanguageClient):
    lines = THREE.split("\n")
    first = _line_of(THREE, "I.1 ")
    uri = await _open(client, "new-game.7wn", "\n".join(lines[:first]) + "\nI.1 \n")
    result = await client.text_document_completion_async(t.CompletionParams(
        text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=first, character=0)))
    assert [i.label for i in result.items] == ["I.1"]
    result = await client.text_document_completion_async(t.CompletionParams(
        text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=first, character=4)))
    items = {i.label: i.detail for i in result.items}
    assert items["Apothecary"] == "affordable: buy L loom, 2 coins in all"  # Marta's first build, as the replay says


async def test_completion_on_turn_six_adds_the_discard_clause(client: LanguageClient):
    uri = await _open(client, "six.7wn", SEVEN)
    line = _line_of(SEVEN, "I.6 ")
    result = await client.text_document_completion_async(t.CompletionParams(
        text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=line, character=4)))
    labels = [i.label for i in result.items]
    assert "sell Guard Tower, discard Timber Yard" in labels
    assert any("not affordable" in (i.detail or "") for i in result.items)
    line = _line_of(SEVEN, "III.1 ")  # Grace's Halikarnassos stage builds from the discard pile (R-HALI)
    column = SEVEN.split("\n")[line].index("pick Training Ground")
    result = await client.text_document_completion_async(t.CompletionParams(
        text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=line, character=column)))
    picks = [i.label for i in result.items]
    assert "pick Training Ground" in picks and "pick -" in picks


async def test_hover_shows_a_card_a_rule_and_the_score_sheet(client: LanguageClient):
    uri = await _open(client, "hover.7wn", THREE)
    line = _line_of(THREE, "I.3 ")
    text = THREE.split("\n")[line]

    async def hover(column: int) -> str:
        found = await client.text_document_hover_async(t.HoverParams(
            text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=line, character=column)))
        return found.contents.value

    card = await hover(text.index("Loom") + 1)
    assert "**Loom**: Age I" in card and "cost" in card and "copies for 3/4/5/6/7" in card
    sheet = await hover(1)
    assert "provisional score sheet" in sheet and "| Marta |" in sheet
    seat = _line_of(THREE, "[Seat1 ")
    wonder = await client.text_document_hover_async(t.HoverParams(
        text_document=t.TextDocumentIdentifier(uri=uri),
        position=t.Position(line=seat, character=THREE.split("\n")[seat].index('" "') + 4)))
    assert "stage 1:" in wonder.contents.value and "starts with" in wonder.contents.value
    await _change(client, uri, 2, line, text.index("Loom"), text.index("Loom") + 4, "Temple")
    rule = await hover(text.index("Loom") + 1)
    assert "R-" in rule and "wnotation rules R-" in rule


async def test_a_quick_fix_replaces_a_misspelt_card_and_the_diagnostic_goes(client: LanguageClient):
    lines = THREE.split("\n")
    line = _line_of(THREE, "I.3 ")
    lines[line] = lines[line].replace("Loom", "Lomo")
    text = "\n".join(lines)
    uri = await _open(client, "fix.7wn", text)
    [d] = _errors(client.diagnostics[uri])
    actions = await client.text_document_code_action_async(t.CodeActionParams(
        text_document=t.TextDocumentIdentifier(uri=uri), range=d.range,
        context=t.CodeActionContext(diagnostics=[d])))
    fix = next(a for a in actions if a.kind == t.CodeActionKind.QuickFix)
    assert fix.title == "replace 'Lomo' by 'Loom'"
    fixed = _apply(text, fix.edit.changes[uri])
    assert fixed == THREE
    edit = fix.edit.changes[uri][0]
    found = await _change(client, uri, 2, line, edit.range.start.character, edit.range.end.character, edit.new_text)
    assert found == []


async def test_a_quick_fix_inserts_a_missing_bar(client: LanguageClient):
    lines = THREE.split("\n")
    line = _line_of(THREE, "I.3 ")
    lines[line] = lines[line].replace("Loom | ", "Loom ")
    text = "\n".join(lines)
    uri = await _open(client, "bar.7wn", text)
    [d] = _errors(client.diagnostics[uri])
    actions = await client.text_document_code_action_async(t.CodeActionParams(
        text_document=t.TextDocumentIdentifier(uri=uri), range=d.range,
        context=t.CodeActionContext(diagnostics=[d])))
    assert _apply(text, actions[0].edit.changes[uri]) == THREE


async def test_the_canonical_purchase_is_offered_as_a_rewrite(client: LanguageClient):
    line = _line_of(SEVEN, "I.6 ")
    text = SEVEN.replace("stage East Trading Post (R stone) !", "stage East Trading Post !")
    uri = await _open(client, "purchase.7wn", text)
    actions = await client.text_document_code_action_async(t.CodeActionParams(
        text_document=t.TextDocumentIdentifier(uri=uri),
        range=t.Range(start=t.Position(line=line, character=0), end=t.Position(line=line, character=0)),
        context=t.CodeActionContext(diagnostics=[])))
    [rewrite] = [a for a in actions if a.kind == t.CodeActionKind.RefactorRewrite]
    assert _apply(text, rewrite.edit.changes[uri]) == SEVEN


async def test_formatting_gives_the_canonical_text_and_is_then_stable(client: LanguageClient):
    messy = THREE.replace("I.3 sell Marketplace | Loom", "i.3   sell  Marketplace|Loom")
    assert messy != THREE
    uri = await _open(client, "format.7wn", messy)
    edits = await client.text_document_formatting_async(t.DocumentFormattingParams(
        text_document=t.TextDocumentIdentifier(uri=uri), options=t.FormattingOptions(tab_size=4, insert_spaces=True)))
    formatted = _apply(messy, edits)
    from wnotation.diagnostics import canonical_text

    assert formatted == canonical_text(THREE, purchases=True)
    again = await _open(client, "format-again.7wn", formatted)
    assert await client.text_document_formatting_async(t.DocumentFormattingParams(
        text_document=t.TextDocumentIdentifier(uri=again),
        options=t.FormattingOptions(tab_size=4, insert_spaces=True))) in ([], (), None)


async def test_range_formatting_touches_only_the_game_in_the_range(client: LanguageClient):
    messy = THREE.replace("I.3 sell Marketplace | Loom", "i.3   sell  Marketplace|Loom")
    text = messy + "\n" + messy
    uri = await _open(client, "range.7wn", text)
    second = len(messy.split("\n"))
    edits = await client.text_document_range_formatting_async(t.DocumentRangeFormattingParams(
        text_document=t.TextDocumentIdentifier(uri=uri),
        range=t.Range(start=t.Position(line=second + 3, character=0), end=t.Position(line=second + 4, character=0)),
        options=t.FormattingOptions(tab_size=4, insert_spaces=True)))
    assert len(edits) == 1 and edits[0].range.start.line >= second - 1
    result = _apply(text, edits)
    assert result.startswith(messy)


async def test_the_outline_and_folding_of_variations(client: LanguageClient):
    text = (REPLAYS / "variations-3p-rhodos-babylon-olympia.7wn").read_text(encoding="utf-8")
    uri = await _open(client, "variations.7wn", text)
    symbols = await client.text_document_document_symbol_async(t.DocumentSymbolParams(
        text_document=t.TextDocumentIdentifier(uri=uri)))
    [game] = symbols
    assert game.name == "game 1: Ada, Bob, Cyd"
    assert [age.name for age in game.children] == ["Age I", "Age II", "Age III"]
    first = game.children[0].children[0]
    assert first.name == "I.1" and first.children[0].name == "(I.1 variation 1)"
    open_at = _line_of(text, "( { What if Cyd")
    assert first.children[0].range.start.line == open_at
    nested = _line_of(text, "  ( I.6 Cyd: ")  # Cyd's hand inside Bob's variation holds the Loom and the Lumber Yard
    result = await client.text_document_completion_async(t.CompletionParams(
        text_document=t.TextDocumentIdentifier(uri=uri),
        position=t.Position(line=nested, character=text.split("\n")[nested].index("Cyd: ") + 5)))
    assert [i.label for i in result.items][:2] == ["Loom, discard Lumber Yard", "sell Loom, discard Lumber Yard"]
    folds = await client.text_document_folding_range_async(t.FoldingRangeParams(
        text_document=t.TextDocumentIdentifier(uri=uri)))
    assert any(f.start_line == open_at and f.end_line == open_at + 1 for f in folds)


async def test_a_large_file_is_checked_and_an_edit_rechecks_one_game(client: LanguageClient):
    games = [SEVEN.replace("Seven-player marathon", f"Seven-player marathon {k}") for k in range(40)]
    text = "\n".join(games)
    uri = await _open(client, "large.7wn", text)
    assert list(client.diagnostics[uri]) == []
    per = len(games[0].split("\n"))
    line = per * 20 + _line_of(SEVEN, "II.3 ")
    column = len("II.3 ")
    found = await _change(client, uri, 2, line, column, column + len("Statue"), "Statu")
    assert [(d.code, d.range.start.line) for d in _errors(found)] == [("unknown-card", line)]


async def test_hostile_text_gives_diagnostics_not_a_crash(client: LanguageClient):
    hostile = ('[Format "7WN 1"]\n[Edition "2e"]\n[Date "2026.01.01"]\n'
               '[Seat1 "A\u202e\u0000" "Rhodos" "day"]\n[Seat2 "<script>" "Babylon" "day"]\n'
               '[Seat3 "C" "Olympia" "day"]\nI.1 \U0001f600 | Loom | {\u0007 unclosed\n' + "x" * 20000 + "\n")
    uri = await _open(client, "hostile.7wn", hostile)
    found = client.diagnostics[uri]
    assert _errors(found) and found[0].range.start.character == 4 and found[0].range.end.character == 6  # UTF-16
    symbols = await client.text_document_document_symbol_async(t.DocumentSymbolParams(
        text_document=t.TextDocumentIdentifier(uri=uri)))
    assert symbols[0].name.endswith("(does not read)")
    result = await client.text_document_completion_async(t.CompletionParams(
        text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=6, character=7)))
    assert all("\u0000" not in i.label and "<script>" not in i.label for i in result.items)
    # the server still answers on a good document
    good = await _open(client, "after-hostile.7wn", THREE)
    assert list(client.diagnostics[good]) == []
