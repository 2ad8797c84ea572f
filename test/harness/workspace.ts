import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './codeServer';

/** The fake agent the `command` lane runs in the tests (see the file). */
export const APPEND_AGENT = join(REPO_ROOT, 'test', 'fixtures', 'appendAgent.mjs');

export interface TestWorkspace {
  readonly dir: string;
  /** The `switchyard.lanes` value written to `.vscode/settings.json`. */
  readonly lanes: Record<string, Record<string, unknown>>;
  remove(): void;
}

/** The command line of the `command` lane: this Node running the fixture agent. */
export function appendAgentCommand(): string {
  return `${shellQuote(process.execPath)} ${shellQuote(APPEND_AGENT)}`;
}

/**
 * A fresh git repository with one commit (README.md, src/hello.txt) and a
 * `.vscode/settings.json` that points the `command` lane at the fixture agent.
 * `.vscode/` is excluded in `.git/info/exclude`, so the tests may change
 * settings without touching what `git status` shows the user.
 */
export function createTestWorkspace(): TestWorkspace {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-ws-'));
  const git = (...args: string[]): string =>
    execFileSync(
      'git',
      [
        '-c',
        'user.name=Switchyard Tests',
        '-c',
        'user.email=tests@switchyard.invalid',
        '-c',
        'init.defaultBranch=main',
        ...args,
      ],
      {
        cwd: dir,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
  git('init', '--quiet');
  writeFileSync(
    join(dir, 'README.md'),
    '# Switchyard test workspace\n\nA throwaway repository for the integration and UI tests.\n',
  );
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'hello.txt'), 'hello\n');
  git('add', 'README.md', 'src/hello.txt');
  git('commit', '--quiet', '--no-verify', '-m', 'Initial commit');

  const lanes = { command: { command: appendAgentCommand() } };
  mkdirSync(join(dir, '.vscode'));
  writeFileSync(join(dir, '.vscode', 'settings.json'), `${JSON.stringify({ 'switchyard.lanes': lanes }, null, 2)}\n`);
  writeFileSync(join(dir, '.git', 'info', 'exclude'), '.vscode/\n', { flag: 'a' });
  return { dir, lanes, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
