// The 7WN extension: starts `wnotation lsp` (the command of the wnotation.command setting) for .7wn documents.
"use strict";
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("wnotation");
  const [command, ...args] = config.get("command", ["wnotation", "lsp"]);
  const docsUrl = config.get("docsUrl", "");
  client = new LanguageClient(
    "wnotation",
    "7WN language server",
    { command, args },
    {
      documentSelector: [{ language: "7wn" }],
      initializationOptions: docsUrl ? { docsUrl } : {},
    },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
