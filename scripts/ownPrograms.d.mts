// Types of ownPrograms.mjs, for the tests that bundle Switchyard themselves.
export declare const NODE_BUNDLE: {
  bundle: true;
  platform: 'node';
  format: 'cjs';
  target: 'node20';
  define: Record<string, string>;
};
export declare function ownProgramBuilds(outdir: string): (typeof NODE_BUNDLE & {
  entryPoints: string[];
  outfile: string;
})[];
