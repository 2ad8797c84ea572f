import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

export interface MeasuredRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Peak resident set size of the process, in KiB (`/usr/bin/time`'s %M, else the last VmHWM read from /proc). */
  peakKiB: number;
  elapsedMs: number;
}

const TIME = '/usr/bin/time';

/**
 * Runs `node <args>` as a child and measures its peak memory and wall time:
 * through GNU time when it is installed (exact), else by reading
 * /proc/<pid>/status VmHWM (the kernel's high-water mark) every 20 ms until
 * the process exits.
 */
export function runMeasured(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<MeasuredRun> {
  const viaTime = existsSync(TIME);
  const started = performance.now();
  const child = viaTime
    ? spawn(TIME, ['-f', 'PEAK_RSS_KIB=%M', process.execPath, ...args], { env })
    : spawn(process.execPath, args, { env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  let hwm = 0;
  const poll = viaTime
    ? undefined
    : setInterval(() => {
        try {
          const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
          if (m) hwm = Math.max(hwm, Number(m[1]));
        } catch {
          // Exited.
        }
      }, 20);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      if (poll) clearInterval(poll);
      const elapsedMs = performance.now() - started;
      const m = /PEAK_RSS_KIB=(\d+)\s*$/.exec(stderr);
      if (m) stderr = stderr.slice(0, m.index);
      resolve({ exitCode: code, stdout, stderr, peakKiB: m ? Number(m[1]) : hwm, elapsedMs });
    });
  });
}
