// Types of ownPrograms.mjs, for the tests that bundle Switchyard themselves.
export declare const OWN_PROGRAM_ENTRIES: string[];
export declare const NODE_BUNDLE_DEFINE: Record<string, string>;
export declare function ownProgramBuilds(outdir: string): {
  entryPoints: string[];
  outfile: string;
  bundle: true;
  platform: 'node';
  format: 'cjs';
  target: 'node20';
  define: Record<string, string>;
}[];
