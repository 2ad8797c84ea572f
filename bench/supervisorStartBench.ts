import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Socket } from 'node:net';
import { median, spread, wall } from './processTiming';

const ROUNDS = 21;

/**
 * The process-group supervisor's start (dist/supervisorMain.js, what sharedSupervisor.ts spawns): from spawn to its
 * first frame (`ready`) on the control socket, then its exit once the socket is closed, against `node -e 0` started
 * and waited for the same way, interleaved round by round; medians and ranges, and the ratio of the medians. A
 * group's first command waits for this once per Switchyard process.
 */
export async function benchSupervisorStart(): Promise<void> {
  const program = resolve('dist/supervisorMain.js');
  const size = await stat(program).then(
    (s) => s.size,
    () => undefined,
  );
  if (size === undefined) {
    console.log(`${program} missing: run npm run build`);
    return;
  }
  const node: number[] = [];
  const supervisor: number[] = [];
  for (let i = 0; i < 1 + ROUNDS; i++) {
    const n = (await wall(process.execPath, ['-e', '0'], '/')).wallMs;
    const s = await untilReady([program]);
    if (i === 0) continue; // warm-up: the page cache
    node.push(n);
    supervisor.push(s);
  }
  console.log(`dist/supervisorMain.js ${(size / 1024).toFixed(1)} KiB; ${ROUNDS} rounds, fresh processes`);
  console.log(`node -e 0, spawn to exit (floor)      ${spread(node)}`);
  console.log(
    `supervisor, spawn to its ready frame  ${spread(supervisor)}  ${(median(supervisor) / median(node)).toFixed(2)}× the floor`,
  );
}
benchSupervisorStart.title = "The process-group supervisor's start vs node -e 0";

function untilReady(args: string[]): Promise<number> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit', 'pipe'], cwd: '/' });
    const control = child.stdio[3] as Socket;
    let readyMs: number | undefined;
    child.on('error', fail);
    control.once('data', () => {
      readyMs = performance.now() - started;
      // Closing the socket is the owner gone: an idle supervisor exits at once.
      control.end();
    });
    child.on('close', () =>
      readyMs === undefined ? fail(new Error('the supervisor exited before it was ready')) : done(readyMs),
    );
  });
}
