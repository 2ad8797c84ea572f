import { spawn } from 'node:child_process';

/** Runs a fresh process to its end: its wall time and what it printed; a non-zero exit fails. */
export function wall(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ wallMs: number; stdout: string }> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.on('error', fail);
    child.on('close', (code) => {
      if (code !== 0) fail(new Error(`${command} ${args.join(' ')} exited with ${code}`));
      else done({ wallMs: performance.now() - started, stdout });
    });
  });
}

export function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
}

/** Median and range: `12.3 ms (11.0–15.2)`. */
export function spread(values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const lo = sorted[0] ?? 0;
  const hi = sorted[sorted.length - 1] ?? 0;
  return `${median(values).toFixed(1).padStart(7)} ms (${lo.toFixed(1)}–${hi.toFixed(1)})`;
}
