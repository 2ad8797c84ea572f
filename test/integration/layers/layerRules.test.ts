import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { execa } from 'execa';

const repo = resolve(import.meta.dirname, '../../..');
const fixture = join(repo, 'test/fixtures/layers');
const checkLayers = join(repo, 'scripts/check-layers.sh');

interface Violation {
  rule: string;
  from: string;
  to: string;
}

/** Runs the layer check (`npm run check:layers`'s script, the committed config) on `cwd`'s src, webview and plugins. */
function checkIn(cwd: string, ...options: string[]) {
  return execa('bash', [checkLayers, ...options, 'src', 'webview', 'plugins'], { cwd, reject: false });
}

/** The violations the check reports on `cwd` (its JSON report, which always exits 0). */
async function violationsIn(cwd: string): Promise<Violation[]> {
  const result = await checkIn(cwd, '--output-type', 'json');
  assert.ok(
    result.stdout.startsWith('{'),
    `the layer check printed no report (exit ${result.exitCode}): ${result.stderr}`,
  );
  const report = JSON.parse(result.stdout) as {
    summary: { violations: { rule: { name: string }; from: string; to: string }[] };
  };
  const violations = report.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
  return violations.sort((a, b) => `${a.rule} ${a.from}`.localeCompare(`${b.rule} ${b.from}`));
}

describe('layer rules (.dependency-cruiser.cjs)', function () {
  this.timeout(120_000);

  it('fails on every import against the layers in the fixture tree, and on nothing else', async () => {
    // As npm test runs it: it fails, with one error a violation.
    const check = await checkIn(fixture);
    assert.equal(check.exitCode, 17, check.stdout + check.stderr);
    assert.match(check.stdout, /x 17 dependency violations \(17 errors, 0 warnings\)/);
    assert.deepEqual(await violationsIn(fixture), [
      { rule: 'core-stays-core', from: 'src/core/git/vscodeTypes.ts', to: 'vscode' },
      { rule: 'core-stays-core', from: 'src/core/text/usesCli.ts', to: 'src/cli/cliName.ts' },
      { rule: 'core-unlayered', from: 'src/core/mystery/unlayered.ts', to: 'src/core/model/item.ts' },
      { rule: 'layer-backend', from: 'src/core/backend/backend.ts', to: 'src/core/lanes/lane.ts' },
      { rule: 'layer-lanes', from: 'src/core/lanes/lane.ts', to: 'src/core/backend/backend.ts' },
      { rule: 'layer-model', from: 'src/core/model/upward.ts', to: 'src/core/engine/runItem.ts' },
      { rule: 'layer-scheduler', from: 'src/core/scheduler/peer.ts', to: 'src/core/journal/journalName.ts' },
      // Both cycles are of type-only imports: they count.
      { rule: 'no-circular', from: 'src/core/backend/backend.ts', to: 'src/core/lanes/lane.ts' },
      { rule: 'no-circular', from: 'src/core/store/typeCycleA.ts', to: 'src/core/store/typeCycleB.ts' },
      { rule: 'plugins-not-each-other', from: 'plugins/lane/lane.ts', to: 'plugins/other/otherLane.ts' },
      { rule: 'plugins-public-api-only', from: 'plugins/lane/lane.ts', to: 'src/core/model/item.ts' },
      // Processes start behind the supervisor or through the git runner; src/core/process/spawner.ts may spawn.
      {
        rule: 'processes-through-supervisor',
        from: 'plugins/shared/grepsWithExeca.ts',
        to: '../../../node_modules/execa/index.js',
      },
      { rule: 'processes-through-supervisor', from: 'src/core/engine/spawnsItself.ts', to: 'child_process' },
      { rule: 'transitions-are-pure', from: 'src/core/transitions/readsState.ts', to: 'fs/promises' },
      // The UI and the CLI reach the machinery (here the engine and the backend) through the façade; their imports of
      // the model are allowed.
      { rule: 'ui-cli-through-facade', from: 'src/cli/readsBackend.ts', to: 'src/core/backend/backend.ts' },
      { rule: 'ui-cli-through-facade', from: 'src/ui/runsEngine.ts', to: 'src/core/engine/runItem.ts' },
      { rule: 'webview-protocol-only', from: 'webview/view.ts', to: 'src/core/engine/runItem.ts' },
    ]);
  });

  it('gives every folder and root file of src/core exactly one layer', () => {
    const config = createRequire(import.meta.url)(join(repo, '.dependency-cruiser.cjs')) as {
      forbidden: { name: string }[];
    };
    const layered = config.forbidden
      .filter((rule) => rule.name.startsWith('layer-'))
      .map((rule) => rule.name.slice('layer-'.length));
    const entries = readdirSync(join(repo, 'src/core'), { withFileTypes: true }).map((entry) =>
      entry.isDirectory() ? entry.name : entry.name.replace(/\.ts$/, ''),
    );
    assert.deepEqual([...layered].sort(), [...entries].sort());
    assert.equal(new Set(layered).size, layered.length);
  });
});
