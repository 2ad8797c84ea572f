/**
 * The import rules `npm run check:layers` enforces (dependency-cruiser, run
 * from tools/depcruise: see scripts/check-layers.sh). Type-only imports count.
 *
 * The folders of src/core form layers, from the leaves up to the façade. A
 * file may import its own folder and the folders of lower layers, never a
 * folder of its own layer or of a higher one: the folders form a directed
 * acyclic graph by construction. docs/architecture.md draws the
 * same layers; test/integration/layers/layerRules.test.ts checks that every folder of
 * src/core has a layer and that the rules bite.
 */
const LAYERS = [
  ['errors.ts'],
  ['model', 'text'],
  ['process', 'git', 'credentials', 'store'],
  ['retry', 'lease', 'journal', 'scheduler', 'secrets'],
  ['lanes', 'backend', 'github'],
  ['routing', 'workspace', 'agent', 'transitions', 'guards'],
  ['engine'],
  ['panel', 'report', 'experiment'],
  ['project'],
];

/** What the UI and the CLI may import of the core: the model (layers 0-1), the views (7) and the façade (8). */
const MODEL_LAYERS = LAYERS.slice(0, 2);
const VIEW_LAYER = LAYERS[7];
const FACADE_LAYER = LAYERS[8];

/** `^src/core/<name>/` for a folder, `^src/core/<name>$` for a root file. */
function corePath(name) {
  const escaped = name.replace(/\./g, '\\.');
  return name.endsWith('.ts') ? `^src/core/${escaped}$` : `^src/core/${escaped}/`;
}

const layerRules = LAYERS.flatMap((layer, index) =>
  layer.map((name) => {
    const below = LAYERS.slice(0, index).flat();
    return {
      name: `layer-${name.replace(/\.ts$/, '')}`,
      comment: `src/core/${name} (layer ${index}) may import only itself and the layers below: ${below.join(', ') || 'nothing of the core'}`,
      severity: 'error',
      from: { path: corePath(name) },
      to: { path: '^src/core/', pathNot: [corePath(name), ...below.map(corePath)] },
    };
  }),
);

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle between files (type-only imports included).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-unlayered',
      comment: 'Every file of src/core lies in a folder (or is a root file) that has a layer in .dependency-cruiser.cjs.',
      severity: 'error',
      from: { path: '^src/core/', pathNot: LAYERS.flat().map(corePath) },
      to: {},
    },
    ...layerRules,
    {
      name: 'core-stays-core',
      comment: 'src/core never imports vscode (not even its types), the UI, the CLI, the built-in lane wiring, the public API, plugins/ or webview/.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: ['^src/(ui|cli|lanes)/', '^src/(api|extension)\\.ts$', '^plugins/', '^webview/', '^vscode$', '(^|/)node_modules/@types/vscode/'] },
    },
    {
      name: 'ui-cli-through-facade',
      comment: `src/ui, src/cli and the extension's entries import of the core only the façade (project/) and the views beside it (${VIEW_LAYER.join(', ')}), and the model (${MODEL_LAYERS.flat().join(', ')}): the machinery between them (layers 2-6) is reached through the façade.`,
      severity: 'error',
      from: { path: ['^src/(ui|cli)/', '^src/extension(Runtime)?\\.ts$'] },
      to: { path: '^src/core/', pathNot: [...MODEL_LAYERS.flat(), ...VIEW_LAYER, ...FACADE_LAYER].map(corePath) },
    },
    {
      name: 'transitions-are-pure',
      comment: 'src/core/transitions changes a state value and nothing else: no store backend, git, process, file system, network, lease, journal, worktree or secret.',
      severity: 'error',
      from: { path: '^src/core/transitions/' },
      to: {
        path: [
          '^src/core/(backend|git|process|lease|journal|workspace|guards|agent|secrets|credentials)/',
          '^(node:)?(fs|fs/promises|child_process|net|http|https|worker_threads)$',
        ],
      },
    },
    {
      name: 'engine-folders-one-way',
      comment: 'Inside the engine: drain/ uses run/, run/ uses integration/, and the shared root files (the run context, plan and stage gate) use none of them; never the other way.',
      severity: 'error',
      from: { path: '^src/core/engine/(run|integration|commands)/|^src/core/engine/[^/]+$' },
      to: { path: '^src/core/engine/drain/' },
    },
    {
      name: 'engine-run-above-integration',
      comment: 'integration/ and the engine root files do not import run/ (run/ uses them).',
      severity: 'error',
      from: { path: '^src/core/engine/(integration|commands)/|^src/core/engine/[^/]+$' },
      to: { path: '^src/core/engine/run/' },
    },
    {
      name: 'processes-through-supervisor',
      comment: 'Only src/core/process (the supervisor, for commands and lanes) and src/core/git (the git runner) start processes: nothing else imports child_process or execa.',
      severity: 'error',
      from: { path: '^(src|plugins|webview)/', pathNot: '^src/core/(process|git)/' },
      to: { path: ['^(node:)?child_process$', '^execa$', '(^|/)node_modules/execa/'] },
    },
    {
      name: 'webview-protocol-only',
      comment: 'webview/ runs in the browser: it imports itself and the panel protocol (src/core/panel/panelProtocol.ts), nothing else.',
      severity: 'error',
      from: { path: '^webview/' },
      to: { pathNot: ['^webview/', '^src/core/panel/panelProtocol\\.ts$', '(^|/)node_modules/zod/'] },
    },
    {
      name: 'plugins-public-api-only',
      comment: 'A built-in lane imports the public API (src/api.ts), plugins/shared and its own folder: nothing else of Switchyard.',
      severity: 'error',
      from: { path: '^plugins/' },
      to: { path: ['^src/', '^webview/', '^test/', '^bench/', '^scripts/'], pathNot: '^src/api\\.ts$' },
    },
    {
      name: 'plugins-not-each-other',
      comment: 'A built-in lane does not import another lane: shared code lives in plugins/shared.',
      severity: 'error',
      from: { path: '^plugins/([^/]+)/' },
      to: { path: '^plugins/', pathNot: ['^plugins/$1/', '^plugins/shared/'] },
    },
  ],
  options: {
    // Type-only imports are dependencies too: a cycle of types is a cycle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: `${__dirname}/tsconfig.json` },
    // Packages are not cruised, but they stay in the graph so that a rule can name one (execa).
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|out)/' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
