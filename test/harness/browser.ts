import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { registerCleanup } from './cleanup';
import { MARKER_VAR, killAll, killAllSync } from './processes';

export const CHROMIUM = '/usr/bin/chromium';

/** Flags for a quiet, offline headless chromium. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
];

export interface Browser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** Debian's chromium through playwright-core, with a fresh profile that is removed on close. */
export async function launchChromium(viewport = { width: 1400, height: 900 }): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  const profile = mkdtempSync(join(tmpdir(), 'switchyard-chromium-'));
  const needles = [`${MARKER_VAR}=${profile}`];
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await Promise.race([context?.close().catch(() => undefined), new Promise((r) => setTimeout(r, 10_000))]);
    await killAll(undefined, needles);
    await rm(profile, { recursive: true, force: true });
    unregister();
  };
  const unregister = registerCleanup({
    name: 'chromium',
    run: close,
    runSync: () => {
      killAllSync(undefined, needles);
      rmSync(profile, { recursive: true, force: true });
    },
  });
  let context: BrowserContext | undefined;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport,
      env: {
        ...process.env,
        [MARKER_VAR]: profile,
        XDG_CONFIG_HOME: join(profile, 'xdg-config'),
        XDG_CACHE_HOME: join(profile, 'xdg-cache'),
      },
      // The harness handles signals itself (it must stop code-server too).
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      timeout: 60_000,
    });
  } catch (error) {
    await close();
    throw error;
  }
  return { context, close };
}
