import * as assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Task } from '../../../src/core/model/task';
import { anthropicServer } from '../../fixtures/anthropicServer';
import { storedTask } from '../helpers/workspaceState';

// Runs after extension.itest (files run in name order), in the same window and repository.
// Fake, assembled from parts so no secret scanner takes it for a real key.
const FAKE_KEY = ['sk', 'ant', 'api03', 'ITEST', 'FAKEKEY', '0123456789abcdefghijklmnopqrstuvwxyz'].join('-');

describe('API keys in VS Code (Set API Key, SecretStorage)', function () {
  it('Set API Key stores the key; an anthropic run uses it; the key is nowhere under .switchyard; clearing it fails the next run before it starts', async function () {
    await vscode.extensions.getExtension('switchyard.switchyard')!.activate();
    const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const server = await anthropicServer([
      {
        turn: { text: 'Hello from the local server.', tools: [{ name: 'finish', input: { summary: 'said hello' } }] },
      },
    ]);
    const config = vscode.workspace.getConfiguration('switchyard');
    const original = config.inspect<Record<string, unknown>>('lanes')?.workspaceValue;
    await config.update(
      'lanes',
      { ...(original ?? {}), anthropic: { baseUrl: `${server.url}/v1` } },
      vscode.ConfigurationTarget.Workspace,
    );
    try {
      const stored = await exec('switchyard.setApiKey', 'anthropic', 'ANTHROPIC_API_KEY', FAKE_KEY);
      assert.deepEqual(
        stored,
        { laneId: 'anthropic', secret: 'ANTHROPIC_API_KEY', action: 'stored' },
        'the command answers without the value',
      );

      const task = await exec<Task>('switchyard.newTask', {
        title: 'Say hello',
        spec: 'say hello',
        lane: 'anthropic',
      });
      await exec('switchyard.runTask', task.id);
      const done = storedTask(root, task.id);
      assert.equal(done.state, 'DONE', done.failureReason);
      assert.equal(server.requests[0]!.headers['x-api-key'], FAKE_KEY, 'the key came from SecretStorage');

      const switchyardDir = join(root, '.switchyard');
      const files = readdirSync(switchyardDir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name));
      assert.ok(
        files.some((f) => f.endsWith('journal.jsonl')),
        'the journal was searched',
      );
      const leaks = files.filter((f) => readFileSync(f, 'utf8').includes(FAKE_KEY));
      assert.deepEqual(leaks, [], 'files that contain the key');

      const cleared = await exec('switchyard.setApiKey', 'anthropic', 'ANTHROPIC_API_KEY', '');
      assert.deepEqual(cleared, { laneId: 'anthropic', secret: 'ANTHROPIC_API_KEY', action: 'cleared' });
      if (!process.env.ANTHROPIC_API_KEY) {
        const second = await exec<Task>('switchyard.newTask', {
          title: 'No key now',
          spec: 'say hello',
          lane: 'anthropic',
        });
        await exec('switchyard.runTask', second.id);
        const failed = storedTask(root, second.id);
        assert.equal(failed.state, 'FAILED');
        assert.match(
          failed.failureReason ?? '',
          /lane "anthropic" needs ANTHROPIC_API_KEY, which is not set: run "Switchyard: Set API Key" and pick anthropic/,
        );
        assert.equal(server.requests.length, 1, 'no request was made without a key');
      }
    } finally {
      await config.update('lanes', original, vscode.ConfigurationTarget.Workspace);
      await server.stop();
    }
  });
});

function exec<T = unknown>(command: string, ...args: unknown[]): Promise<T> {
  return Promise.resolve(vscode.commands.executeCommand<T>(command, ...args));
}
