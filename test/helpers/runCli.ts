import { tmpdir } from 'node:os';
import { main } from '../../src/cli/main';

export interface CliOutput {
  code: number;
  out: string;
  err: string;
}

/**
 * Runs the CLI's `main()` in this process, hermetically: in `cwd` (default the
 * system's temporary folder, never the checkout) with `env` (default a copy of
 * this process's environment, so a test never changes `process.env`), its
 * output captured.
 */
export async function runCli(
  args: readonly string[],
  where: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliOutput> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, {
    cwd: where.cwd ?? tmpdir(),
    env: where.env ?? { ...process.env },
    out: (t) => out.push(t),
    err: (t) => err.push(t),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
