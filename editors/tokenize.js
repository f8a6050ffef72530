// Tokenises 7WN texts with the TextMate grammar, as VS Code does (vscode-textmate and vscode-oniguruma): reads a
// JSON list of texts on stdin, writes for each text the list of its tokens as [start, end, scopes] with offsets
// into that text. Used by tests/test_editor_grammar.py to compare the grammar with the Pygments lexer.
// Run: node editors/tokenize.js GRAMMAR.json < texts.json (the two packages found through NODE_PATH).
"use strict";
const fs = require("fs");
const path = require("path");
const vsctm = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const grammarPath = process.argv[2];
const wasm = fs.readFileSync(path.join(path.dirname(require.resolve("vscode-oniguruma")), "onig.wasm")).buffer;
const onigLib = oniguruma.loadWASM(wasm).then(() => ({
  createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
  createOnigString: (s) => new oniguruma.OnigString(s),
}));
const registry = new vsctm.Registry({
  onigLib,
  loadGrammar: async (scope) =>
    scope === "source.7wn" ? vsctm.parseRawGrammar(fs.readFileSync(grammarPath, "utf8"), grammarPath) : null,
});

const texts = JSON.parse(fs.readFileSync(0, "utf8"));
registry.loadGrammar("source.7wn").then((grammar) => {
  const out = texts.map((text) => {
    const tokens = [];
    let stack = vsctm.INITIAL;
    let offset = 0;
    for (const line of text.split("\n")) {
      const result = grammar.tokenizeLine(line, stack);
      for (const t of result.tokens) {
        tokens.push([offset + t.startIndex, offset + Math.min(t.endIndex, line.length), t.scopes]);
      }
      stack = result.ruleStack;
      offset += line.length + 1;
    }
    return tokens;
  });
  process.stdout.write(JSON.stringify(out));
});
