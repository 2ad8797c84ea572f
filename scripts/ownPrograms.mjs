// Switchyard's own programs (src/core/process/ownProgram.ts): each entry file is bundled beside every bundle that may
// start it, under its base name (supervisorMain.ts → supervisorMain.js), and every Node bundle sees
// `import.meta.filename` as its own file, which is how ownProgram finds them.
import { basename, join } from 'node:path';

/** The entry files of the programs a bundle may start. */
export const OWN_PROGRAM_ENTRIES = ['src/core/process/supervisorMain.ts', 'src/core/workspace/folderRemoverWorker.ts'];

/** esbuild's `define` for a CommonJS bundle of Switchyard's sources. */
export const NODE_BUNDLE_DEFINE = { 'import.meta.filename': '__filename' };

/** esbuild options that write the programs into `outdir` (spread them over the caller's own options). */
export function ownProgramBuilds(outdir) {
  return OWN_PROGRAM_ENTRIES.map((entry) => ({
    entryPoints: [entry],
    outfile: join(outdir, basename(entry).replace(/\.ts$/, '.js')),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    define: NODE_BUNDLE_DEFINE,
  }));
}
