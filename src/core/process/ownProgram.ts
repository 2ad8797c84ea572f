import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';

/** One of Switchyard's own programs, as Node can start it. */
export type OwnProgram =
  /** The bundle esbuild wrote from the program's entry file. */
  | { file: string }
  /** From the TypeScript sources: a line of JavaScript that runs the entry file through tsx's loader. */
  | { loader: string };

/**
 * One of Switchyard's own programs (the process-group supervisor, a worker), named by its entry file's base name,
 * which sits beside the module `besideFile` that starts it. In a bundle (`besideFile` is the bundle's own `.js`,
 * esbuild replacing `import.meta.filename` with `__filename`), it is the bundle esbuild wrote beside it from that
 * entry file (scripts/ownPrograms.mjs lists them). From the TypeScript sources (tests, benchmarks), it is the entry
 * file itself, required through tsx (a development dependency) by absolute paths: the supervisor's working folder is
 * `/`, and tsx's `--import` hooks do not reach a worker thread on Node 20.
 */
export function ownProgram(besideFile: string, name: string): OwnProgram {
  if (!besideFile.endsWith('.ts')) return { file: join(dirname(besideFile), `${name}.js`) };
  const tsx = createRequire(besideFile).resolve('tsx/cjs/api');
  const entry = join(dirname(besideFile), `${name}.ts`);
  return { loader: `require(${JSON.stringify(tsx)}).register(); require(${JSON.stringify(entry)});` };
}

/** The arguments to Node that run `program` as a process. */
export function ownProgramArguments(program: OwnProgram): string[] {
  return 'file' in program ? [program.file] : ['-e', program.loader];
}

/** Starts `program` on a worker thread. */
export function startOwnWorker(program: OwnProgram): Worker {
  return 'file' in program ? new Worker(program.file) : new Worker(program.loader, { eval: true });
}
