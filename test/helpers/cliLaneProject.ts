import { createClaudeCodeLane } from '../../plugins/claude-code';
import { createCodexLane } from '../../plugins/codex';
import { createCursorAgentLane } from '../../plugins/cursor-agent';
import { LaneRegistry } from '../../src/core/lanes/laneRegistry';
import { Project } from '../../src/core/project/project';
import type { RunLogLine } from '../../src/core/store/runFiles';
import { makeTempRepo } from './tempRepo';

/** A vendor key that only the stand-ins ever see. */
export const FAKE_KEYS = {
  // Fake, assembled from parts so no secret scanner takes it for a real key.
  ANTHROPIC_API_KEY: ['sk', 'ant', 'test', '0123456789abcdef'].join('-'),
  OPENAI_API_KEY: 'sk-test-openai-0123456789abcdef',
  CURSOR_API_KEY: 'key_test_cursor_0123456789abcdef',
} as const;

/**
 * A temporary repository opened as a Project with the three CLI lanes, the
 * given lane settings, `attempts` attempts per task and no retry backoff, so
 * tests run through the real engine quickly.
 */
export async function cliLaneProject(
  lane: string,
  settings: Record<string, unknown>,
  options: { attempts?: number; parentEnv?: NodeJS.ProcessEnv } = {},
) {
  const repo = await makeTempRepo();
  const registry = new LaneRegistry();
  for (const plugin of [createClaudeCodeLane(), createCodexLane(), createCursorAgentLane()]) registry.register(plugin);
  const project = await Project.open(repo.dir, {
    registry,
    parentEnv: options.parentEnv ?? { ...process.env, ...FAKE_KEYS },
  });
  await project.settings.update((s) => {
    s.laneSettings[lane] = settings;
    s.retryCaps[lane] = options.attempts ?? 1;
    (s as { retryBackoff?: unknown }).retryBackoff = { initialMs: 0, coefficient: 2, maxMs: 0 };
  });
  return { repo, project };
}

/** The lane events of a run, in order. */
export async function laneEvents(project: Project, runId: string): Promise<Record<string, unknown>[]> {
  return (await project.runs.log(runId))
    .filter((l: RunLogLine) => l.type === 'lane')
    .map((l) => l.event as Record<string, unknown>);
}
