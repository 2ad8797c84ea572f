import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCommandLane } from '../../plugins/command';
import { LaneRegistry } from '../../src/core/lanes/laneRegistry';
import { Project } from '../../src/core/project/project';
import type { ProjectSettings } from '../../src/core/store/projectState';
import { startGitHttpServer } from '../fixtures/gitHttpServer';
import { startGitHubDouble, type DoubleOptions, type GitHubDouble } from '../fixtures/gitHubDouble';
import { makeTempRepo } from './tempRepo';

/** One scaled minute of CI time, in real milliseconds (the CI gate polls every scaled 30 s). */
export const MINUTE = 250;

/** A GitHub token in GitHub's format, assembled at run time so no file holds one. */
export const TOKEN = ['ghp', 'Sw1tchyardTestToken0000000000000000a1'].join('_');

/**
 * A repository whose `origin` is a real bare repository behind the GitHub double, opened as a Project in
 * pull-request mode with the command lane running `command`. `git(args)` runs git in the bare repository.
 */
export async function pullRequestProject(
  command: string,
  double: Omit<DoubleOptions, 'bare' | 'tokens'> & { tokens?: Set<string> },
  options: {
    env?: Record<string, string>;
    settings?: (s: ProjectSettings) => void;
    /** Serve the bare repository over git's smart HTTP with token authentication (`origin` is its URL). */
    http?: boolean;
  } = {},
) {
  const repo = await makeTempRepo();
  const root = await mkdtemp(join(tmpdir(), 'switchyard-bare-'));
  const bare = join(root, 'o', 'r.git');
  execFileSync('git', ['init', '--quiet', '--bare', '-b', 'main', bare]);
  await repo.git('push', bare, 'main');
  const tokens = double.tokens ?? new Set([TOKEN]);
  let ghUrl = '';
  // Over HTTP, one Enterprise-Server-shaped host serves both git and the API (`/api/v3`), as the token's binding needs.
  const http = options.http ? await startGitHttpServer(root, tokens, () => ghUrl) : undefined;
  await repo.git('remote', 'add', 'origin', http ? `${http.url}/o/r.git` : bare);
  const gh: GitHubDouble = await startGitHubDouble({ ...double, bare, tokens });
  ghUrl = gh.url;
  const apiUrl = http ? `${http.url}/api/v3` : gh.url;
  const registry = new LaneRegistry();
  registry.register(createCommandLane());
  // The token is stored for the double's host the way a user binds one to a GitHub Enterprise Server (GitHub CLI's
  // variables); GITHUB_TOKEN belongs to github.com and goes nowhere here.
  const env = {
    ...process.env,
    GITHUB_TOKEN: '',
    GH_TOKEN: '',
    GH_HOST: new URL(apiUrl).host,
    GH_ENTERPRISE_TOKEN: TOKEN,
    ...options.env,
  };
  const project = await Project.open(repo.dir, { registry, parentEnv: env });
  await project.settings.update((s) => {
    s.laneSettings.command = { command };
    s.defaultLane = 'command';
    s.retryCaps.command = 3;
    s.retryBackoff.initialMs = 0;
    s.integration.mode = 'pull-request';
    s.integration.base = 'main';
    s.integration.ciPollSeconds = (MINUTE / 2 / 1000) as number;
    s.integration.ciTimeoutSeconds = (40 * MINUTE) / 1000;
    s.github.apiUrl = apiUrl;
    if (!http) s.github.repository = 'o/r';
    options.settings?.(s);
  });
  const bareGit = (args: string[]) => execFileSync('git', args, { cwd: bare, encoding: 'utf8' }).trim();
  const cleanup = async () => {
    await project.close();
    await gh.close();
    await http?.close();
    await repo.cleanup();
    await rm(root, { recursive: true, force: true });
  };
  /** The variables that hold the token for the double's host (for a CLI started by the test). */
  const tokenEnv = { GH_HOST: env.GH_HOST, GH_ENTERPRISE_TOKEN: TOKEN };
  return { repo, bare, gh, http, project, bareGit, cleanup, tokenEnv };
}

/** Every file under `dir` whose content contains `needle` (to show a token reached no log). */
export function filesContaining(dir: string, needle: string): string[] {
  const found: string[] = [];
  const walk = (at: string): void => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      const st = statSync(path, { throwIfNoEntry: false });
      if (!st) continue;
      if (st.isDirectory()) walk(path);
      else if (st.isFile() && st.size < 20 * 1024 * 1024 && readFileSync(path, 'latin1').includes(needle))
        found.push(path);
    }
  };
  walk(dir);
  return found;
}
