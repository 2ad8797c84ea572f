import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initRepo } from './repoGit';

/**
 * A real Node project in a fresh git repository: a tiny dependency packed
 * with `npm pack` and installed from its tarball (offline), `node_modules`
 * and `.env` git-ignored, `npm test` loading the dependency and, with
 * `env`, reading GREETING from `.env`. The dependency is loaded from the
 * project's own `node_modules`: a bare `require('dep')` in a worktree under
 * `.switchyard/worktrees/` would walk up to the main checkout's
 * `node_modules` and pass by accident (with whatever versions are installed
 * there, not the run's lockfile).
 */
export async function makeNodeProject(options: { env?: boolean; depFiles?: number } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-node-'));
  const depDir = join(dir, 'dep-src');
  const repo = join(dir, 'repo');
  await mkdir(depDir);
  await mkdir(repo);
  const depFiles = options.depFiles ?? 0;
  await writeFile(
    join(depDir, 'package.json'),
    JSON.stringify({ name: 'dep', version: '1.0.0', main: 'index.js', files: ['index.js', 'lib'] }),
  );
  await writeFile(join(depDir, 'index.js'), 'module.exports = { answer: 42 };\n');
  if (depFiles) {
    await mkdir(join(depDir, 'lib'));
    for (let i = 0; i < depFiles; i++)
      await writeFile(join(depDir, 'lib', `m${i}.js`), `module.exports = ${i}; // ${'x'.repeat(200)}\n`);
  }
  execFileSync('npm', ['pack', '--silent'], { cwd: depDir, stdio: 'pipe' });
  await writeFile(
    join(repo, 'package.json'),
    JSON.stringify({ name: 'proj', version: '1.0.0', private: true, scripts: { test: 'node test.js' } }, null, 2),
  );
  execFileSync('cp', [join(depDir, 'dep-1.0.0.tgz'), repo]);
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--silent', './dep-1.0.0.tgz'], {
    cwd: repo,
    stdio: 'pipe',
  });
  await writeFile(join(repo, '.gitignore'), 'node_modules/\n.env\n');
  const readsEnv = options.env
    ? `const env = require('node:fs').readFileSync(require('node:path').join(__dirname, '.env'), 'utf8');
if (!/^GREETING=hello$/m.test(env)) { console.error('GREETING is not hello'); process.exit(1); }
`
    : '';
  await writeFile(
    join(repo, 'test.js'),
    `const dep = require(require('node:path').join(__dirname, 'node_modules', 'dep'));
if (dep.answer !== 42) { console.error('wrong answer'); process.exit(1); }
${readsEnv}console.log('tests pass');
`,
  );
  if (options.env) await writeFile(join(repo, '.env'), 'GREETING=hello\n');
  const git = await initRepo(repo, 'a node project');
  return { dir: repo, git, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
