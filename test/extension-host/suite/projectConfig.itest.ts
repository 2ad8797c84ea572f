import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import * as vscode from 'vscode';
import type { ProjectState } from '../../../src/core/store/projectState';
import { untilValue } from '../../helpers/until';

// Runs in the shared window and repository (files run in name order); removes the config file it creates.
describe('the project config in VS Code (Open Project Config, the contributed JSON schema)', function () {
  this.timeout(120_000);

  it('Open Project Config creates .switchyard/config.json; the schema flags a wrong type in it', async () => {
    await vscode.extensions.getExtension('switchyard.switchyard')!.activate();
    const file = await vscode.commands.executeCommand<string>('switchyard.openProjectConfig');
    try {
      assert.ok(file.endsWith('/.switchyard/config.json'), file);
      assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { version: 1 });
      assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, file, 'the file is open');
      const uri = vscode.Uri.file(file);
      const document = vscode.window.activeTextEditor!.document;
      const edit = new vscode.WorkspaceEdit();
      const text = '{\n  "version": 1,\n  "wip": { "VERIFYING": "two" },\n  "review": { "enabled": true }\n}\n';
      edit.replace(uri, new vscode.Range(0, 0, document.lineCount, 0), text);
      assert.ok(await vscode.workspace.applyEdit(edit));
      const flagged = await untilValue(
        'a schema diagnostic on wip.VERIFYING',
        () => {
          const found = vscode.languages.getDiagnostics(uri).filter((d) => d.range.start.line === 2);
          return found.length ? found : undefined;
        },
        60_000,
        200,
      );
      assert.match(flagged[0]!.message, /integer|type/i, flagged[0]!.message);
      assert.equal(document.getText(flagged[0]!.range), '"two"');
      // Fixed, the diagnostic goes away.
      const fix = new vscode.WorkspaceEdit();
      fix.replace(uri, flagged[0]!.range, '2');
      assert.ok(await vscode.workspace.applyEdit(fix));
      await untilValue(
        'no diagnostics once the value is an integer',
        () => (vscode.languages.getDiagnostics(uri).length === 0 ? true : undefined),
        60_000,
        200,
      );
    } finally {
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      if (existsSync(file)) rmSync(file);
    }
    assert.equal(existsSync(file), false);
  });

  it('a project setting set in the Settings UI (switchyard.review.enabled) is what the project runs with', async () => {
    const config = vscode.workspace.getConfiguration('switchyard');
    const reviewing = (state: ProjectState | undefined) => (state?.settings.review.enabled ? state : undefined);
    try {
      await config.update('review.enabled', true, vscode.ConfigurationTarget.Workspace);
      // Changing it reopens the project; the views then read the layered settings.
      const state = await untilValue(
        'the project to see review.enabled',
        async () => reviewing(await refresh()),
        30_000,
        200,
      );
      assert.equal(state.settings.review.enabled, true);
    } finally {
      await config.update('review.enabled', undefined, vscode.ConfigurationTarget.Workspace);
    }
    await untilValue(
      'review.enabled back to the project value',
      async () => {
        const state = await refresh();
        return state.settings.review.enabled ? undefined : state;
      },
      30_000,
      200,
    );
  });

  it('switchyard.verifyTimeoutSeconds reaches the project as its verifyTimeoutSeconds (whole seconds), and goes', async () => {
    const config = vscode.workspace.getConfiguration('switchyard');
    const project = (await refresh()).settings.verifyTimeoutSeconds;
    try {
      await config.update('verifyTimeoutSeconds', 42.4, vscode.ConfigurationTarget.Workspace);
      await untilValue(
        'the project to see verifyTimeoutSeconds 42',
        async () => ((await refresh()).settings.verifyTimeoutSeconds === 42 ? true : undefined),
        30_000,
        200,
      );
    } finally {
      await config.update('verifyTimeoutSeconds', undefined, vscode.ConfigurationTarget.Workspace);
    }
    await untilValue(
      'verifyTimeoutSeconds back to the project value',
      async () => ((await refresh()).settings.verifyTimeoutSeconds === project ? true : undefined),
      30_000,
      200,
    );
  });
});

function refresh(): Promise<ProjectState> {
  return Promise.resolve(vscode.commands.executeCommand<ProjectState>('switchyard.refresh', {}));
}
