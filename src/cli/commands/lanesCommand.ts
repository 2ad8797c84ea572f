import { registryWithBuiltins } from '../../lanes/builtinLanes';
import { type CliContext, UsageError, openProject, requirePositional } from '../cliContext';
import { table } from '../format';
import {
  laneStatusesOutside,
  parseSettingValue,
  readinessProblems,
  unknownLaneIds,
} from '../../core/project/laneService';
import { plainLine } from '../../core/text/plainText';
import { shellQuote } from '../../core/text/shellQuote';

/** `switchyard lanes [--json]`, `lanes set <lane> key=value…`, `lanes cap <lane> <n>` */
export async function lanesCommand(ctx: CliContext): Promise<number> {
  if (ctx.positionals[0] === 'set') return setLaneSettings(ctx);
  if (ctx.positionals[0] === 'cap') return setRetryCap(ctx);
  // Inside a repository, its (trusted) lane modules count too; elsewhere only the built-in lanes.
  const project = await openProject(ctx).catch(() => undefined);
  const registry = project?.registry ?? registryWithBuiltins();
  const lanes = registry.list().map((l) => l.manifest);
  const statuses = project ? await project.lanes.statuses() : await laneStatusesOutside(registry, ctx.env);
  const readiness = new Map(statuses.map((s) => [s.manifest.id, s.readiness]));
  const stray = project
    ? unknownLaneIds(Object.keys((await project.state()).settings.laneSettings), registry, "The project's laneSettings")
    : undefined;
  if (stray) ctx.err(`warning: ${stray.message}`);
  if (ctx.flags.json) {
    ctx.out(
      JSON.stringify(
        lanes.map((m) => ({ ...m, readiness: readiness.get(m.id) })),
        null,
        2,
      ),
    );
    return 0;
  }
  // Ready lanes first, as the editor's lane pickers list them.
  const ordered = [...lanes].sort((a, b) => Number(!readiness.get(a.id)?.ready) - Number(!readiness.get(b.id)?.ready));
  ctx.out(
    table(
      ['LANE', 'READY', 'KIND', 'VERSION', 'RETRY CAP', 'NAME'],
      ordered.map((m) => [
        m.id,
        readiness.get(m.id)?.ready ? 'yes' : 'no',
        m.kind,
        m.version,
        String(m.defaultRetryCap),
        m.displayName,
      ]),
    ),
  );
  // Every problem of each unready lane, one line each, with a command to run when a fix is one (sign in).
  const unready = ordered.filter((m) => !readiness.get(m.id)?.ready);
  if (unready.length) ctx.out('\nnot ready:');
  for (const m of unready) {
    const r = readiness.get(m.id);
    const problems = r ? readinessProblems(r) : [];
    if (!problems.length) ctx.out(`  ${m.id}: unknown`);
    for (const problem of problems) {
      ctx.out(`  ${m.id}: ${plainLine(problem.reason)}`);
      for (const fix of problem.fixes ?? [])
        if (fix.kind === 'terminal') ctx.out(`    ${plainLine(fix.label)}: ${shellWords(fix.argv)}`);
    }
  }
  for (const m of lanes) {
    const settings = Object.entries(m.settings);
    if (!settings.length) continue;
    ctx.out(`\n${m.id} settings:`);
    for (const [name, s] of settings) {
      const about = [s.type, s.required ? 'required' : undefined].filter(Boolean).join(', ');
      ctx.out(`  ${name}${about ? ` (${about})` : ''}: ${s.description}`);
    }
  }
  return 0;
}

/** A command as a person can paste it into a shell: words quoted where sh would read them otherwise. */
function shellWords(argv: readonly string[]): string {
  return argv.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : shellQuote(plainLine(word)))).join(' ');
}

/**
 * Every pair is checked against the lane's documented settings before anything is stored (exit 2 naming the key and the
 * type).
 */
async function setLaneSettings(ctx: CliContext): Promise<number> {
  const laneId = requirePositional(ctx, 1, 'lane id: switchyard lanes set <lane> key=value…');
  const raw = ctx.positionals.slice(2);
  if (!raw.length) throw new UsageError('missing key=value: switchyard lanes set <lane> key=value…');
  const split = raw.map((pair) => {
    const eq = pair.indexOf('=');
    if (eq <= 0)
      throw new UsageError(
        `"${pair}" is not key=value: switchyard lanes set ${laneId} key=value…, e.g. timeoutMs=600000`,
      );
    return [pair.slice(0, eq), pair.slice(eq + 1)] as const;
  });
  const project = await openProject(ctx);
  const { manifest } = project.registry.require(laneId);
  const pairs = split.map(([key, text]) => {
    const parsed = parseSettingValue(manifest, key, text);
    if (!parsed.ok) throw new UsageError(parsed.problem, false);
    return [key, parsed.value] as const;
  });
  const settings = await project.settings.update((s) => {
    s.laneSettings[laneId] = { ...(s.laneSettings[laneId] ?? {}), ...Object.fromEntries(pairs) };
  });
  ctx.out(JSON.stringify(settings.laneSettings[laneId], null, 2));
  const ignored = await project.settings.ignoredNotice(`laneSettings.${laneId}`);
  if (ignored) ctx.err(`warning: ${ignored}`);
  return 0;
}

async function setRetryCap(ctx: CliContext): Promise<number> {
  const laneId = requirePositional(ctx, 1, 'lane id: switchyard lanes cap <lane> <max attempts>');
  const cap = Number(requirePositional(ctx, 2, 'maximum attempts (1-20)'));
  const project = await openProject(ctx);
  project.registry.require(laneId);
  if (!Number.isInteger(cap) || cap < 1 || cap > 20)
    throw new UsageError(`maximum attempts must be a whole number from 1 to 20, not "${ctx.positionals[2]}"`, false);
  await project.settings.update((s) => {
    s.retryCaps[laneId] = cap;
  });
  ctx.out(`lane ${laneId}: at most ${cap} attempt(s) per task`);
  return 0;
}
