// Switchyard's own programs (src/core/process/ownProgram.ts): each entry file is bundled beside every bundle that may
// start it, under its base name (supervisorMain.ts → supervisorMain.js), and every Node bundle sees
// `import.meta.filename` as its own file, which is how ownProgram finds them.
import { basename, join } from 'node:path';

/** The entry files of the programs a bundle may start. */
const OWN_PROGRAM_ENTRIES = ['src/core/process/supervisorMain.ts', 'src/core/workspace/folderRemoverWorker.ts'];

/** esbuild's options for every CommonJS bundle of Switchyard's sources that runs in Node (or the extension host). */
export const NODE_BUNDLE = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  define: { 'import.meta.filename': '__filename' },
};

/** esbuild options that write the programs into `outdir` (spread them over the caller's own options). */
export function ownProgramBuilds(outdir) {
  return OWN_PROGRAM_ENTRIES.map((entry) => ({
    ...NODE_BUNDLE,
    entryPoints: [entry],
    outfile: join(outdir, basename(entry).replace(/\.ts$/, '.js')),
  }));
}
