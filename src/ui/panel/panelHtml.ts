import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

/** The folders the panel may load from: the bundle and the icons/styles. */
export function panelResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')];
}

export function panelOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: panelResourceRoots(extensionUri) };
}

/** The panel's page: CSP `default-src 'none'`, styles and the script only from our roots, the script by nonce. */
export function panelHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = randomBytes(16).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'panel.css'));
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `img-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${csp}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <link rel="stylesheet" href="${style}">
  <title>Switchyard Queue</title>
</head>
<body>
  <header>
    <h1>Switchyard queue</h1>
    <span id="counts"></span>
    <button id="run-queue" type="button">Run Queue</button>
    <button id="refresh" type="button">Refresh</button>
  </header>
  <p id="message" hidden></p>
  <table id="tasks" aria-label="Tasks">
    <thead><tr><th>Task</th><th>Title</th><th>Lane</th><th>State</th><th>Runs</th><th></th></tr></thead>
    <tbody></tbody>
  </table>
  <script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
}
