import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

export type StandInCli = 'claude' | 'codex' | 'cursor-agent';
/** One step of a stand-in's script (see test/fixtures/bin/standIn.mjs). */
export type Step = Record<string, unknown>;

export interface Invocation {
  cli: string;
  argv: string[];
  cwd: string;
  prompt: string;
  session: string | null;
}

const FIXTURE_BIN = resolve('test/fixtures/bin');

/**
 * A stand-in CLI scripted for one test: `binary` is a wrapper that points the
 * stand-in at its scenario (the lane's environment is isolated, so the
 * scenario cannot come from the test's environment). `attempts[n]` is what
 * the n-th invocation does; `invocations()` reads what each was called with.
 */
export async function standIn(dir: string, cli: StandInCli, attempts: Step[][], name: string = cli) {
  await chmod(join(FIXTURE_BIN, cli), 0o755);
  const bin = join(dir, 'bin');
  await mkdir(bin, { recursive: true });
  const record = join(dir, `${name}.invocations.jsonl`);
  const scenario = join(dir, `${name}.scenario.json`);
  await writeFile(scenario, JSON.stringify({ record, attempts }));
  const binary = join(bin, name);
  await writeFile(binary, `#!/bin/sh\nFAKE_CLI_SCENARIO='${scenario}' exec '${join(FIXTURE_BIN, cli)}' "$@"\n`, {
    mode: 0o755,
  });
  return {
    binary,
    bin,
    async invocations(): Promise<Invocation[]> {
      const text = await readFile(record, 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Invocation);
    },
  };
}
