import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

/** The folders the panel may load from: the bundle and the icons/styles. */
export function panelResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')];
}

export function panelOptions(extensionUri: vscode.Uri): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return { enableScripts: true, localResourceRoots: panelResourceRoots(extensionUri) };
}

/**
 * The panel's page: CSP `default-src 'none'`; styles, fonts (codicons) and
 * images only from our roots; the one script by nonce. The script builds the
 * page inside `#app`.
 */
export function panelHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = randomBytes(16).toString('base64');
  const asset = (...path: string[]): vscode.Uri => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...path));
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
  <link rel="stylesheet" href="${asset('media', 'codicons', 'codicon.css')}">
  <link rel="stylesheet" href="${asset('media', 'panel.css')}">
  <title>Switchyard Queue</title>
</head>
<body>
  <main id="app" aria-label="Switchyard queue"><p>Loading the queue…</p></main>
  <script nonce="${nonce}" src="${asset('dist', 'webview.js')}"></script>
</body>
</html>`;
}
