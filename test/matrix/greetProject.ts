import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { initRepo } from '../helpers/repoGit';

/** lib/greet.js as the project starts: the one function the scenarios change. */
export const GREET = `'use strict';
const { exclaim } = require('exclaim');

function greet(name) {
  return exclaim('Hello, ' + name);
}

module.exports = { greet };
`;

/** The project's own test (node:test): every scenario's change must keep it passing. */
const GREET_TEST = `'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { greet } = require('../lib/greet.js');

test('greet greets the name', () => {
  assert.match(greet('Ada'), /, Ada!$/);
});
`;

/**
 * A small real Node project in a fresh git repository (branch main), in its own temp folder: a dependency
 * (`exclaim`) packed with `npm pack` and installed offline from its committed tarball (package-lock.json committed,
 * node_modules git-ignored), lib/greet.js using it, and tests run by node:test (`npm test` = `node --test`).
 * `files` adds or replaces files before the first commit (a scenario's own tests).
 */
export async function makeGreetProject(files: Record<string, string> = {}) {
  const root = await mkdtemp(join(tmpdir(), 'switchyard-matrix-'));
  const depDir = join(root, 'exclaim-src');
  const dir = join(root, 'repo');
  await mkdir(depDir);
  await mkdir(dir);
  await writeFile(
    join(depDir, 'package.json'),
    JSON.stringify({ name: 'exclaim', version: '1.0.0', main: 'index.js', files: ['index.js'] }),
  );
  await writeFile(join(depDir, 'index.js'), "module.exports = { exclaim: (text) => text + '!' };\n");
  execFileSync('npm', ['pack', '--silent'], { cwd: depDir, stdio: 'pipe' });
  execFileSync('cp', [join(depDir, 'exclaim-1.0.0.tgz'), dir]);
  await writeFile(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'greet', version: '1.0.0', private: true, scripts: { test: 'node --test' } })}\n`,
  );
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--silent', './exclaim-1.0.0.tgz'], {
    cwd: dir,
    stdio: 'pipe',
  });
  const all: Record<string, string> = {
    '.gitignore': 'node_modules/\n',
    'lib/greet.js': GREET,
    'test/greet.test.js': GREET_TEST,
    ...files,
  };
  for (const [path, content] of Object.entries(all)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  const git = await initRepo(dir, 'a greeting library');
  const base = (await git('rev-parse', 'HEAD')).trim();
  return { root, dir, git, base, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** The setup that gives each worktree its own node_modules from the committed lockfile and tarball (no network). */
export const NPM_SETUP = ['npm ci --offline --no-audit --no-fund'];
