import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import type { Page } from 'playwright-core';
import type { HostMessage, WebviewMessage } from '../../src/core/panel/panelProtocol';
import { REPO_ROOT } from '../harness/codeServer';
import { themeCss, THEMES, type ThemeName } from './themes';

/**
 * A stand-in for the VS Code webview host, on 127.0.0.1: a page with the
 * panel's CSP (`default-src 'none'`, the script by nonce), the theme
 * variables and body class VS Code sets, and an `acquireVsCodeApi` that
 * records what the panel posts and keeps its setState value across reloads.
 * It serves only dist/webview.js and media/ from the repository (the same
 * roots the real panel may load from).
 */
export interface StandIn {
  readonly origin: string;
  /** The page; `fresh`: without the UI state an earlier page saved. */
  url(theme: ThemeName, fresh?: boolean): string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.ttf': 'font/ttf',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

const STAND_IN_SCRIPT = `
window.__posted = [];
if (new URLSearchParams(location.search).has('fresh')) sessionStorage.clear();
let state = JSON.parse(sessionStorage.getItem('sy-state') || 'null') ?? undefined;
window.acquireVsCodeApi = () => ({
  postMessage: (m) => window.__posted.push(JSON.parse(JSON.stringify(m))),
  getState: () => state,
  setState: (s) => { state = s; sessionStorage.setItem('sy-state', JSON.stringify(s)); },
});
window.__host = { post: (m) => window.dispatchEvent(new MessageEvent('message', { data: m })) };
`;

export async function startStandIn(): Promise<StandIn> {
  const webview = join(REPO_ROOT, 'dist', 'webview.js');
  if (!existsSync(webview)) throw new Error('dist/webview.js is missing: run `npm run build` first');
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const send = (status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
      res.end(body);
    };
    if (url.pathname === '/') {
      const theme = (url.searchParams.get('theme') ?? 'dark') as ThemeName;
      if (!(theme in THEMES)) return send(400, 'text/plain', 'unknown theme');
      const nonce = randomBytes(16).toString('base64');
      const csp = `default-src 'none'; style-src 'self'; img-src 'self'; font-src 'self'; script-src 'nonce-${nonce}'`;
      return send(
        200,
        'text/html',
        `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${csp}">
  <link rel="stylesheet" href="/theme/${theme}.css">
  <link rel="stylesheet" href="/media/codicons/codicon.css">
  <link rel="stylesheet" href="/media/panel.css">
  <title>Switchyard Queue (stand-in host)</title>
</head>
<body class="${THEMES[theme].bodyClass}">
  <main id="app" aria-label="Switchyard queue"></main>
  <script nonce="${nonce}" src="/stand-in.js"></script>
  <script nonce="${nonce}" src="/dist/webview.js"></script>
</body>
</html>`,
      );
    }
    if (url.pathname === '/favicon.ico') return send(204, 'image/x-icon', '');
    if (url.pathname === '/stand-in.js') return send(200, 'text/javascript', STAND_IN_SCRIPT);
    const theme = /^\/theme\/([\w-]+)\.css$/.exec(url.pathname)?.[1];
    if (theme && theme in THEMES) return send(200, 'text/css', themeCss(theme as ThemeName));
    const path = normalize(decodeURIComponent(url.pathname)).replace(/^\/+/, '');
    if (path !== 'dist/webview.js' && !path.startsWith('media/')) return send(404, 'text/plain', 'not served');
    const file = join(REPO_ROOT, path);
    if (!existsSync(file)) return send(404, 'text/plain', 'missing');
    send(200, TYPES[extname(file)] ?? 'application/octet-stream', readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (theme, fresh = false) => `${origin}/?theme=${theme}${fresh ? '&fresh=1' : ''}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Host → webview, as the real host's postMessage arrives: a message event on the window. */
export async function hostPost(page: Page, message: HostMessage | Record<string, unknown>): Promise<void> {
  await page.evaluate((m) => (window as unknown as { __host: { post(m: unknown): void } }).__host.post(m), message);
}

/** What the panel posted to the host so far (and forgets them). */
export async function takePosted(page: Page): Promise<WebviewMessage[]> {
  return page.evaluate(() => {
    const w = window as unknown as { __posted: unknown[] };
    return w.__posted.splice(0) as never;
  });
}
