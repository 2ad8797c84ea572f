import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { SettingClass } from '../../../src/core/model/settingClass';
import { type LaneSettingClass, settingClassOf } from '../../../src/core/store/settingClassOf';
import { knownKeys } from '../../../src/core/store/settingKeys';
import { layerSettings } from '../../../src/core/store/settingsLayers';
import { ProjectSettings } from '../../../src/core/store/projectState';
import { registryWithBuiltins } from '../../../src/lanes/builtinLanes';
import { EDITOR_SETTING_CLASSES } from '../../../src/ui/config/editorSettingClasses';

const registry = registryWithBuiltins();
const laneClass: LaneSettingClass = (lane, setting) => registry.get(lane)?.manifest.settings[setting]?.class;

describe('setting classes (the trust model: what a setting can make Switchyard do)', () => {
  it('every project setting has a class', () => {
    const all = knownKeys().filter((k) => !k.startsWith('laneSettings'));
    // A group (integration, worktree…) is no setting of its own: each of its settings needs a class.
    const keys = all.filter((k) => !all.some((other) => other.startsWith(`${k}.`)) || settingClassOf(k, laneClass));
    assert.ok(keys.length > 40, `walks the whole config schema: ${keys.length} keys`);
    const missing = keys.filter((k) => settingClassOf(k.replaceAll('<name>', 'X'), laneClass) === undefined);
    assert.deepEqual(missing, [], 'declare a class next to the setting (classed(schema, …))');
  });

  it('every setting of every built-in lane has a class', () => {
    const missing: string[] = [];
    for (const { manifest } of registry.list())
      for (const [name, doc] of Object.entries(manifest.settings))
        if (!SettingClass.safeParse(doc.class).success) missing.push(`${manifest.id}.${name}`);
    assert.ok(registry.list().length >= 6);
    assert.deepEqual(missing, [], "declare a class in the lane manifest's settings");
  });

  it('every editor setting (package.json) has a class, and the restricted ones are exactly those not plain', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
    const properties = Object.keys(pkg.contributes.configuration.properties ?? {}).map((k) =>
      k.replace(/^switchyard\./, ''),
    );
    const classes = EDITOR_SETTING_CLASSES as Record<string, string>;
    assert.deepEqual(
      properties.filter((k) => !classes[k]),
      [],
    );
    assert.deepEqual(Object.keys(classes).sort(), [...properties].sort());
    const restricted = Object.keys(classes)
      .filter((k) => classes[k] !== 'plain')
      .map((k) => `switchyard.${k}`);
    assert.deepEqual([...pkg.capabilities.untrustedWorkspaces.restrictedConfigurations].sort(), restricted.sort());
  });

  it('classes by what a value can do, not by its name', () => {
    const expected: Record<string, SettingClass> = {
      'laneSettings.command.command': 'executes',
      'laneSettings.command.reviewCommand': 'executes',
      'laneSettings.command.env': 'routes-credential',
      'laneSettings.claude-code.binary': 'executes',
      'laneSettings.claude-code.extraArgs': 'executes',
      'laneSettings.claude-code.passEnv': 'routes-credential',
      'laneSettings.codex.extraArgs': 'executes',
      'laneSettings.anthropic.baseUrl': 'routes-credential',
      'laneSettings.anthropic.headers.x-api-key': 'routes-credential',
      'laneSettings.anthropic.price.inputPerMTokUsd': 'weakens-protection',
      'laneSettings.anthropic.maxTaskCostUsd': 'weakens-protection',
      'laneSettings.openai-compatible.baseUrl': 'routes-credential',
      'laneSettings.anthropic.safeCommands': 'executes',
      'laneSettings.anthropic.model': 'plain',
      'laneSettings.claude-code.model': 'plain',
      'worktree.setup': 'executes',
      'worktree.copy': 'reads-outside-worktree',
      'worktree.link': 'reads-outside-worktree',
      'worktree.setupTimeoutSeconds': 'plain',
      'secretCommands.ANTHROPIC_API_KEY': 'executes',
      laneModules: 'executes',
      'github.apiUrl': 'routes-credential',
      'github.repository': 'routes-credential',
      'github.app.privateKeyFile': 'routes-credential',
      'integration.remote': 'routes-credential',
      'integration.targetBranch': 'plain',
      'wip.RUNNING': 'plain',
      'retryCaps.claude-code': 'plain',
    };
    for (const [key, cls] of Object.entries(expected)) assert.equal(settingClassOf(key, laneClass), cls, key);
    assert.equal(settingClassOf('laneSettings.some-lane.hook', laneClass), undefined, 'an unknown lane setting');
  });

  it('untrusted, only plain values the repository carries apply (committed file and a state from the clone)', () => {
    const committed = {
      version: 1,
      wip: { RUNNING: 1 },
      worktree: { setup: ['id > marker'], copy: ['.env'] },
      laneSettings: {
        'claude-code': { model: 'opus', extraArgs: ['--settings', '{}'], passEnv: ['GITHUB_*'] },
        anthropic: { baseUrl: 'http://127.0.0.1:9/v1', maxTaskCostUsd: 100000, price: { inputPerMTokUsd: 0 } },
      },
    };
    const local = ProjectSettings.parse({ laneSettings: { command: { command: 'id > marker' } } });
    const untrusted = layerSettings(local, committed, { trusted: false, laneClass, stateFromRepository: true });
    assert.equal(untrusted.settings.wip.RUNNING, 1);
    assert.deepEqual(untrusted.settings.worktree.setup, []);
    assert.deepEqual(untrusted.settings.worktree.copy, []);
    assert.deepEqual(untrusted.settings.laneSettings, { 'claude-code': { model: 'opus' } });
    assert.deepEqual(untrusted.ignored.map((i) => `${i.from}:${i.key}:${i.settingClass}`).sort(), [
      'committed:laneSettings.anthropic.baseUrl:routes-credential',
      'committed:laneSettings.anthropic.maxTaskCostUsd:weakens-protection',
      'committed:laneSettings.anthropic.price.inputPerMTokUsd:weakens-protection',
      'committed:laneSettings.claude-code.extraArgs:executes',
      'committed:laneSettings.claude-code.passEnv:routes-credential',
      'committed:worktree.copy:reads-outside-worktree',
      'committed:worktree.setup:executes',
      'state:laneSettings.command.command:executes',
    ]);
    const own = layerSettings(local, committed, { trusted: false, laneClass });
    assert.equal(own.settings.laneSettings.command?.command, 'id > marker', "this machine's own state applies");
    const trusted = layerSettings(local, committed, { trusted: true, laneClass, stateFromRepository: true });
    assert.deepEqual(trusted.ignored, []);
    assert.deepEqual(trusted.settings.worktree.setup, ['id > marker']);
    assert.equal(trusted.settings.laneSettings.anthropic?.maxTaskCostUsd, 100000);
  });
});
