import { mkdir, readFile, realpath, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod';

const TrustFile = z.object({ workspaces: z.array(z.string()) }).strict();

/**
 * `$XDG_CONFIG_HOME/switchyard/trusted-workspaces.json` (default `~/.config/…`): repositories whose settings may load
 * code.
 */
export function trustFilePath(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'switchyard', 'trusted-workspaces.json');
}

async function readTrust(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return [];
  const parsed = TrustFile.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${file} is not a list of trusted workspaces; fix or remove it`);
  return parsed.data.workspaces;
}

export async function isTrusted(root: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const real = await realpath(root);
  return (await readTrust(trustFilePath(env))).includes(real);
}

/** Adds (or with `revoke`, removes) `root` from the trusted workspaces; returns the new list. */
export async function setTrust(root: string, trusted: boolean, env: NodeJS.ProcessEnv): Promise<string[]> {
  const file = trustFilePath(env);
  const real = await realpath(root);
  const current = (await readTrust(file)).filter((w) => w !== real);
  const next = trusted ? [...current, real] : current;
  await mkdir(dirname(file), { recursive: true });
  await writeFile(`${file}.tmp`, `${JSON.stringify({ workspaces: next }, null, 2)}\n`);
  await rename(`${file}.tmp`, file);
  return next;
}
