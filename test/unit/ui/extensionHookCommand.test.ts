import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shellQuote } from '../../../src/core/text/shellQuote';
import { extensionHookCommand } from '../../../src/ui/project/extensionHookCommand';

// What the pre-push hook of a run started in VS Code runs: the extension's own dist/hook.js, by the extension host's
// binary made to act as Node (Electron in desktop VS Code).
describe('the hook command of runs started in VS Code', () => {
  let extensionDir: string;
  before(() => {
    extensionDir = mkdtempSync(join(tmpdir(), "switchyard ext's-"));
    mkdirSync(join(extensionDir, 'dist'));
    writeFileSync(join(extensionDir, 'dist', 'hook.js'), '');
  });
  after(() => rmSync(extensionDir, { recursive: true, force: true }));

  it('runs dist/hook.js with the host binary as Node, both paths quoted for sh', () => {
    const node = "/opt/VS Code's/code";
    assert.equal(
      extensionHookCommand(extensionDir, node),
      `ELECTRON_RUN_AS_NODE=1 ${shellQuote(node)} ${shellQuote(join(extensionDir, 'dist', 'hook.js'))}`,
    );
    assert.match(extensionHookCommand(extensionDir, node)!, /^ELECTRON_RUN_AS_NODE=1 '\/opt\/VS Code'\\''s\/code' '/);
  });

  it('is undefined for an extension folder without dist/hook.js (the run records the guard as not installed)', () => {
    assert.equal(extensionHookCommand(join(extensionDir, 'missing'), '/usr/bin/node'), undefined);
  });
});
