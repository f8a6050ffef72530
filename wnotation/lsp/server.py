"""The 7WN language server over the protocol, with pygls 2 (the ``[lsp]`` extra): each request answered by
:mod:`.analysis` and its plain values turned into protocol types here.

Diagnostics are published on open and, debounced, after changes: an edit schedules a check ``debounce`` seconds
later, and a newer edit of the same document replaces it, so a burst of keystrokes costs one check. Columns are
converted between code points (the reader's) and the client's units (UTF-16 unless it negotiates UTF-32 or UTF-8).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any, BinaryIO

from lsprotocol import types as t
from pygls.capabilities import ServerCapabilitiesBuilder
from pygls.lsp.server import LanguageServer

from .. import __version__
from . import analysis as a

#: Seconds between the last keystroke and the check it triggers.
DEBOUNCE = 0.15


def default_docs() -> str | None:
    """The documentation site that the diagnostics' codes link to unless the client's initialisation options give
    ``docsUrl``: the site of the source tree (README: built into ``docs/_build/html``); ``None`` for an installed
    package, which has no site beside it (the diagnostics then carry their code without a link)."""
    tree = Path(__file__).resolve().parents[2]
    if not (tree / "docs" / "conf.py").is_file():
        return None
    return (tree / "docs" / "_build" / "html").as_uri()


_SEVERITY = {"error": t.DiagnosticSeverity.Error, "warning": t.DiagnosticSeverity.Warning,
             "note": t.DiagnosticSeverity.Information}
_COMPLETION_KIND = {"card": t.CompletionItemKind.Value, "keyword": t.CompletionItemKind.Keyword,
                    "value": t.CompletionItemKind.EnumMember, "tag": t.CompletionItemKind.Property,
                    "seat": t.CompletionItemKind.Variable, "label": t.CompletionItemKind.Event}
_SYMBOL_KIND = {"game": t.SymbolKind.Module, "age": t.SymbolKind.Namespace, "turn": t.SymbolKind.Event,
                "variation": t.SymbolKind.Struct}


class WnServer(LanguageServer):
    """The server and what it keeps: the games by text, each open document's analysis, the pending checks."""

    def __init__(self, debounce: float = DEBOUNCE) -> None:
        super().__init__("wnotation", __version__, text_document_sync_kind=t.TextDocumentSyncKind.Incremental)
        self.cache = a.GameCache()
        self.debounce = debounce
        self.docs_url = default_docs()
        self.encoding = "utf-16"
        self.pending: dict[str, asyncio.TimerHandle] = {}
        self.published: dict[str, list[a.LspDiagnostic]] = {}

    # columns: code points <-> the client's units

    def units(self, line: str, column: int) -> int:
        if self.encoding == "utf-32":
            return column
        if self.encoding == "utf-8":
            return len(line[:column].encode("utf-8"))
        return len(line[:column].encode("utf-16-le")) // 2

    def points(self, line: str, units: int) -> int:
        if self.encoding == "utf-32":
            return min(units, len(line))
        size = 1 if self.encoding == "utf-8" else 2
        codec = "utf-8" if self.encoding == "utf-8" else "utf-16-le"
        count = 0
        for k, ch in enumerate(line):
            if count >= units:
                return k
            count += len(ch.encode(codec)) // size
        return len(line)

    def position(self, doc: a.DocumentAnalysis, line: int, column: int) -> t.Position:
        text = doc.lines[line] if 0 <= line < len(doc.lines) else ""
        return t.Position(line=line, character=self.units(text, column))

    def range(self, doc: a.DocumentAnalysis, line: int, column: int, end_line: int, end_column: int) -> t.Range:
        return t.Range(start=self.position(doc, line, column), end=self.position(doc, end_line, end_column))

    def cursor(self, doc: a.DocumentAnalysis, pos: t.Position) -> tuple[int, int]:
        text = doc.lines[pos.line] if 0 <= pos.line < len(doc.lines) else ""
        return pos.line, self.points(text, pos.character)

    # documents

    def analysis(self, uri: str) -> a.DocumentAnalysis:
        return a.analyse(self.workspace.get_text_document(uri).source, self.cache)

    def diagnostics(self, uri: str) -> tuple[a.DocumentAnalysis, list[a.LspDiagnostic]]:
        doc = self.analysis(uri)
        return doc, doc.diagnostics()

    def publish(self, uri: str) -> None:
        self.pending.pop(uri, None)
        document = self.workspace.get_text_document(uri)
        doc, found = self.diagnostics(uri)
        self.published[uri] = found
        self.text_document_publish_diagnostics(t.PublishDiagnosticsParams(
            uri=uri, version=document.version, diagnostics=[self.diagnostic(uri, doc, d) for d in found]))

    def schedule(self, uri: str) -> None:
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        loop = asyncio.get_running_loop()
        self.pending[uri] = loop.call_later(self.debounce, self.publish, uri)

    def diagnostic(self, uri: str, doc: a.DocumentAnalysis, d: a.LspDiagnostic) -> t.Diagnostic:
        diag = d.diagnostic
        related = [t.DiagnosticRelatedInformation(
            location=t.Location(uri=uri, range=self.range(doc, r.line, r.column, r.line, r.end_column)),
            message=r.message) for r in d.related]
        return t.Diagnostic(
            range=self.range(doc, d.line, d.column, d.line, d.end_column),
            message=diag.message if diag.suggestion is None or diag.suggestion in diag.message
            else f"{diag.message} (suggestion: {diag.suggestion})",
            severity=_SEVERITY[diag.severity], code=diag.rule, source="wnotation",
            code_description=None if self.docs_url is None
            else t.CodeDescription(href=a.docs_href(diag.rule, self.docs_url)),
            related_information=related or None,
            data={"suggestion": diag.suggestion, "kind": diag.kind})

    def edit(self, doc: a.DocumentAnalysis, e: a.Edit) -> t.TextEdit:
        return t.TextEdit(range=self.range(doc, e.line, e.column, e.end_line, e.end_column), new_text=e.text)


def build(debounce: float = DEBOUNCE) -> WnServer:
    """A server with every feature registered (started by :func:`serve`, or by a test on its own streams)."""
    server = WnServer(debounce)

    @server.feature(t.INITIALIZE)
    def initialize(ls: WnServer, params: t.InitializeParams) -> None:
        options: Any = params.initialization_options
        if isinstance(options, dict):
            url = options.get("docsUrl")
            if isinstance(url, str) and url.startswith(("https://", "http://", "file://")):
                ls.docs_url = url
            wait = options.get("debounce")
            if isinstance(wait, (int, float)) and 0 <= wait <= 5:
                ls.debounce = float(wait)
        # the encoding pygls chose for the document sync, by the same rule
        ls.encoding = str(ServerCapabilitiesBuilder.choose_position_encoding(params.capabilities))

    @server.feature(t.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: WnServer, params: t.DidOpenTextDocumentParams) -> None:
        ls.publish(params.text_document.uri)

    @server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: WnServer, params: t.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri)

    @server.feature(t.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: WnServer, params: t.DidSaveTextDocumentParams) -> None:
        ls.publish(params.text_document.uri)

    @server.feature(t.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: WnServer, params: t.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        waiting = ls.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        ls.published.pop(uri, None)
        ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(t.TEXT_DOCUMENT_COMPLETION, t.CompletionOptions(trigger_characters=["|", " ", '"', ",", "["]))
    def completion(ls: WnServer, params: t.CompletionParams) -> t.CompletionList:
        doc = ls.analysis(params.text_document.uri)
        line, column = ls.cursor(doc, params.position)
        items = []
        for k, c in enumerate(a.completions(doc, line, column, ls.cache)):
            items.append(t.CompletionItem(
                label=c.label, kind=_COMPLETION_KIND.get(c.kind), detail=c.detail or None,
                sort_text=f"{c.order:05d}{k:05d}", filter_text=c.text,
                text_edit=t.TextEdit(range=ls.range(doc, line, c.start, line, column), new_text=c.text)))
        return t.CompletionList(is_incomplete=False, items=items)

    @server.feature(t.TEXT_DOCUMENT_HOVER)
    def hover(ls: WnServer, params: t.HoverParams) -> t.Hover | None:
        doc, found = ls.diagnostics(params.text_document.uri)
        line, column = ls.cursor(doc, params.position)
        answer = a.hover(doc, line, column, found)
        if answer is None:
            return None
        text, start, end = answer
        return t.Hover(contents=t.MarkupContent(kind=t.MarkupKind.Markdown, value=text),
                       range=ls.range(doc, line, start, line, end))

    @server.feature(t.TEXT_DOCUMENT_CODE_ACTION, t.CodeActionOptions(
        code_action_kinds=[t.CodeActionKind.QuickFix, t.CodeActionKind.RefactorRewrite]))
    def code_action(ls: WnServer, params: t.CodeActionParams) -> list[t.CodeAction]:
        uri = params.text_document.uri
        doc, found = ls.diagnostics(uri)
        out = []
        for fix in a.code_fixes(doc, params.range.start.line, params.range.end.line, found):
            edits = [ls.edit(doc, e) for e in fix.edits]
            diagnostics = [ls.diagnostic(uri, doc, fix.diagnostic)] if fix.diagnostic is not None else None
            kind = t.CodeActionKind.QuickFix if fix.kind == "quickfix" else t.CodeActionKind.RefactorRewrite
            out.append(t.CodeAction(title=fix.title, kind=kind, diagnostics=diagnostics,
                                    is_preferred=fix.kind == "quickfix" or None,
                                    edit=t.WorkspaceEdit(changes={uri: edits})))
        return out

    def formatted(ls: WnServer, uri: str, first: int | None, last: int | None) -> list[t.TextEdit]:
        doc = ls.analysis(uri)
        try:
            edits = a.format_games(doc, first, last)
        except Exception as exc:  # FormatBug: the writer's own check failed; the document stays as it is
            ls.window_show_message(t.ShowMessageParams(type=t.MessageType.Error,
                                                       message=f"wnotation: not formatted: {exc}"))
            return []
        return [ls.edit(doc, e) for e in edits]

    @server.feature(t.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: WnServer, params: t.DocumentFormattingParams) -> list[t.TextEdit]:
        return formatted(ls, params.text_document.uri, None, None)

    @server.feature(t.TEXT_DOCUMENT_RANGE_FORMATTING)
    def range_formatting(ls: WnServer, params: t.DocumentRangeFormattingParams) -> list[t.TextEdit]:
        return formatted(ls, params.text_document.uri, params.range.start.line, params.range.end.line)

    @server.feature(t.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(ls: WnServer, params: t.DocumentSymbolParams) -> list[t.DocumentSymbol]:
        doc = ls.analysis(params.text_document.uri)

        def convert(s: a.Symbol) -> t.DocumentSymbol:
            end = len(doc.lines[s.end_line]) if s.end_line < len(doc.lines) else 0
            whole = ls.range(doc, s.line, 0, s.end_line, end)
            line_end = len(doc.lines[s.line]) if s.line < len(doc.lines) else 0
            return t.DocumentSymbol(name=s.name, kind=_SYMBOL_KIND[s.kind], range=whole,
                                    selection_range=ls.range(doc, s.line, s.column, s.line, line_end),
                                    children=[convert(c) for c in s.children] or None)

        return [convert(s) for s in a.symbols(doc)]

    @server.feature(t.TEXT_DOCUMENT_FOLDING_RANGE)
    def folding_range(ls: WnServer, params: t.FoldingRangeParams) -> list[t.FoldingRange]:
        doc = ls.analysis(params.text_document.uri)
        return [t.FoldingRange(start_line=f.line, end_line=f.end_line,
                               kind=t.FoldingRangeKind.Comment if f.kind == "comment" else t.FoldingRangeKind.Region)
                for f in a.folding(doc)]

    return server


def serve(stdin: BinaryIO, stdout: BinaryIO, debounce: float = DEBOUNCE) -> None:
    """Run the server on the byte streams ``stdin`` and ``stdout`` until the client says exit. Text written to
    ``sys.stdout`` meanwhile goes to standard error: the protocol owns standard output."""
    saved = sys.stdout
    sys.stdout = sys.stderr
    try:
        build(debounce).start_io(stdin, stdout)
    finally:
        sys.stdout = saved
