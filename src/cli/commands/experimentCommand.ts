import { resolve } from 'node:path';
import { readDagFile, runExperiment, type ExperimentRow } from '../../core/experiment/runExperiment';
import { Project } from '../../core/project/project';
import { registryWithBuiltins } from '../../lanes/builtinLanes';
import { type CliContext, flagNumbers, requirePositional } from '../cliContext';
import { table } from '../format';

/** `switchyard experiment --concurrency 1,2,4 <dag.json> [--json]` */
export async function experimentCommand(ctx: CliContext): Promise<number> {
  const path = resolve(ctx.cwd, requirePositional(ctx, 0, 'DAG file (task specs; see README → Orchestrator)'));
  const settings = flagNumbers(ctx, 'concurrency') ?? [1, 2, 4];
  const dag = await readDagFile(path);
  const rows = await runExperiment(
    dag,
    settings,
    (dir) => Project.open(dir, { registry: registryWithBuiltins(), hookCommand: null, parentEnv: ctx.env }),
    (row) => {
      if (!ctx.flags.json)
        ctx.err(`concurrency ${row.concurrency}: ${row.done}/${row.tasks} DONE in ${(row.wallMs / 1000).toFixed(1)} s`);
    },
  );
  ctx.out(ctx.flags.json ? JSON.stringify(rows, null, 2) : formatExperiment(rows));
  return rows.every((r) => r.done === r.tasks) ? 0 : 1;
}

export function formatExperiment(rows: readonly ExperimentRow[]): string {
  return table(
    [
      'CONCURRENCY',
      'WALL',
      'BATCHES',
      'TASKS',
      'DONE',
      'ATTEMPTS',
      'RETRIES',
      'MAX RUNNING',
      'MAX VERIFYING',
      'MAX REVIEWING',
      'MAX INTEGRATING',
    ],
    rows.map((r) => [
      String(r.concurrency),
      `${(r.wallMs / 1000).toFixed(2)} s`,
      String(r.batches),
      String(r.tasks),
      String(r.done),
      String(r.attempts),
      String(r.retries),
      String(r.peak.RUNNING),
      String(r.peak.VERIFYING),
      String(r.peak.REVIEWING),
      String(r.peak.INTEGRATING),
    ]),
  );
}
