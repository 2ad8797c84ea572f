// @ts-check
// A third-party lane for Switchyard: it uses nothing but the public API
// (`getAPI(1).registerLane`) and the types in Switchyard's switchyard.d.ts.
const vscode = require('vscode');
const fs = require('node:fs/promises');
const path = require('node:path');

/** @typedef {import('../../switchyard').SwitchyardExtension} SwitchyardExtension */
/** @typedef {import('../../switchyard').LanePlugin} LanePlugin */

/** @type {LanePlugin} */
const sampleLane = {
  manifest: {
    id: 'sample-echo',
    displayName: 'Sample Echo',
    version: '0.1.0',
    apiVersion: 1,
    kind: 'cli',
    description: 'Writes the instruction into SAMPLE.md and every target file: a lane from another extension.',
    defaultRetryCap: 1,
    capabilities: { resume: 'none', streaming: true, tools: false },
  },
  async run(input) {
    const files = input.task.files.length ? input.task.files : ['SAMPLE.md'];
    for (const file of files) {
      if (input.signal.aborted) return { status: 'failed', failureReason: 'aborted' };
      const target = path.join(input.workspaceDir, file);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.appendFile(target, `${input.task.spec}\n(from the sample lane)\n`);
      input.emit({ type: 'text', text: `wrote ${file}` });
    }
    return { status: 'succeeded', summary: `sample lane wrote ${files.join(', ')}` };
  },
};

/** @param {vscode.ExtensionContext} context */
async function activate(context) {
  const switchyard = vscode.extensions.getExtension('switchyard.switchyard');
  if (!switchyard) throw new Error('the Switchyard extension is not installed');
  /** @type {SwitchyardExtension} */
  const exports = await switchyard.activate();
  // Disposed when this extension is disabled or uninstalled: the lane disappears from Switchyard.
  context.subscriptions.push(exports.getAPI(1).registerLane(sampleLane));
}

module.exports = { activate, deactivate() {} };
