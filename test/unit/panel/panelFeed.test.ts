import * as assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PanelFeed } from '../../../src/core/panel/panelFeed';
import { HostMessage, type HostMessage as Message } from '../../../src/core/panel/panelProtocol';
import { iso, richProject } from '../../helpers/panelFixture';
import { until } from '../../helpers/until';

describe('PanelFeed (host side: snapshot, batched patches, detail)', () => {
  let root: string;
  let posted: Message[];
  /** How often the feed has read the project: once a flush. */
  let reads: number;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'sy-feed-'));
    mkdirSync(join(root, '.switchyard', 'runs', 't8.2'), { recursive: true });
    posted = [];
    reads = 0;
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const feedFor = (read: () => ReturnType<typeof richProject>['state'] | undefined, error?: string): PanelFeed =>
    new PanelFeed({
      read: () => {
        reads++;
        return { state: read(), root, ...(error ? { error } : {}) };
      },
      post: (m) => posted.push(HostMessage.parse(m) as Message),
      batchMs: 30,
    });

  it('sends a snapshot on ready, then coalesces a burst of changes into one patch', async () => {
    const { state } = richProject();
    const feed = feedFor(() => state);
    await feed.ready();
    assert.deepEqual(
      posted.map((m) => m.type),
      ['snapshot'],
    );
    const beforeBurst = reads;
    for (let i = 0; i < 20; i++) {
      state.tasks.find((t) => t.id === 't5')!.spec.priority = 10 + i; // 20 changes within the batch window
      feed.changed();
    }
    // The batch window's flush has begun; then wait for it to end (flushNow waits for the flush under way).
    await until('the batched flush', () => reads > beforeBurst);
    await feed.flushNow();
    assert.deepEqual(
      posted.map((m) => m.type),
      ['snapshot', 'patch'],
    );
    const patch = posted[1] as Extract<Message, { type: 'patch' }>;
    assert.equal(patch.base, 1);
    assert.equal(patch.seq, 2);
    assert.deepEqual(
      patch.upsert.map((t) => [t.id, t.priority]),
      [['t5', 29]],
    );
    const beforeChange = reads;
    feed.changed();
    await until('the next batched flush', () => reads > beforeChange);
    await feed.flushNow();
    assert.equal(posted.length, 2, 'nothing changed: nothing sent');
    feed.dispose();
  });

  it('posts every title, reason and history line as plain text: no escape, control or bidi character reaches the webview', async () => {
    const { state } = richProject();
    const hostile = `\u001b[31mboom\u001b[0m \u001b]8;;command:workbench.action.terminal.new\u001b\\docs\u001b]8;;\u001b\\ \u009b1m photo\u202Egnp.exe`;
    const t8 = state.tasks.find((t) => t.id === 't8')!;
    t8.spec.title = `Create users ${hostile}`;
    t8.failureReason = `stderr: ${hostile}`;
    for (const run of state.runs.filter((r) => r.taskId === 't8')) run.failureReason = `lane: ${hostile}`;
    const feed = feedFor(() => state);
    await feed.ready();
    await feed.select('t8');
    t8.spec.priority = 99;
    const before = reads;
    feed.changed();
    await until('the batched flush', () => reads > before);
    await feed.flushNow();
    assert.deepEqual([...new Set(posted.map((m) => m.type))].sort(), ['detail', 'patch', 'snapshot']);
    const text = JSON.stringify(posted);
    assert.doesNotMatch(text, /\\u001b|\\u009b|\u009b|\u202e/i, 'no escape, C1 or bidi character in any message');
    assert.ok(
      text.includes('Create users boom docs  photo<U+202E>gnp.exe'),
      'the words stay; bidi shows as a placeholder',
    );
    assert.ok(text.includes('lane: boom docs  photo<U+202E>gnp.exe'), 'the run history too');
    feed.dispose();
  });

  it('picks up new guard verdicts and trace lines from disk, and reports a bad guard line without losing the rest', async () => {
    const { state, guards } = richProject();
    const feed = feedFor(() => state);
    await feed.ready();
    const first = posted[0] as Extract<Message, { type: 'snapshot' }>;
    assert.equal(first.view.guards.total, 0);
    assert.deepEqual(first.view.scheduler, { available: false });
    appendFileSync(
      join(root, '.switchyard', 'guards.jsonl'),
      `${JSON.stringify(guards[2])}\n{"v":1,"nonsense":true}\n`,
    );
    writeFileSync(
      join(root, '.switchyard', 'trace.jsonl'),
      `${JSON.stringify({
        ts: iso(5),
        type: 'decision',
        kind: 'backpressure',
        message: 'no new run: backpressure: VERIFYING is full (2/2), so no new run starts',
      })}\n`,
    );
    await feed.flushNow();
    const patch = posted[1] as Extract<Message, { type: 'patch' }>;
    assert.deepEqual(Object.keys(patch.sections).sort(), ['guards', 'scheduler']);
    assert.equal(patch.sections.guards!.total, 1);
    assert.match(patch.sections.guards!.problem ?? '', /is not a guard verdict \(skipped\)/);
    assert.equal(
      patch.sections.scheduler!.available && patch.sections.scheduler!.lastBackpressure?.kind,
      'backpressure',
    );
    feed.dispose();
  });

  it("sends the selected task's history, again only when it changed", async () => {
    const { state } = richProject();
    writeFileSync(
      join(root, '.switchyard', 'runs', 't8.2', 'events.jsonl'),
      `${JSON.stringify({ ts: iso(241_000), type: 'decision', message: 'task t8 FAILED: exceeded max attempts' })}\n`,
    );
    writeFileSync(join(root, '.switchyard', 'runs', 't8.2', 'diff.patch'), 'diff --git a/x b/x\n');
    const feed = feedFor(() => state);
    await feed.ready('t8');
    const detail = posted.find((m) => m.type === 'detail') as Extract<Message, { type: 'detail' }>;
    assert.equal(detail.taskId, 't8');
    assert.deepEqual(
      detail.detail!.runs.map((r) => [r.id, r.hasDiff]),
      [
        ['t8.1', false],
        ['t8.2', true],
      ],
    );
    assert.deepEqual(
      detail.detail!.decisions.map((d) => d.message),
      ['task t8 FAILED: exceeded max attempts'],
    );
    await feed.flushNow();
    assert.equal(posted.filter((m) => m.type === 'detail').length, 1);
    await feed.select('t1');
    assert.equal((posted.at(-1) as Extract<Message, { type: 'detail' }>).taskId, 't1');
    await feed.select('t404');
    assert.deepEqual(posted.at(-1), { type: 'detail', taskId: 't404', detail: null });
    feed.dispose();
  });

  it('says why there is nothing to show, once, and sends a snapshot when the project comes back', async () => {
    let available = false;
    const { state } = richProject();
    const feed = new PanelFeed({
      read: () => (available ? { state, root } : { error: 'not a git repository: /tmp/x' }),
      post: (m) => posted.push(m),
      batchMs: 10,
    });
    await feed.ready();
    await feed.flushNow();
    assert.deepEqual(posted, [{ type: 'error', message: 'not a git repository: /tmp/x' }]);
    available = true;
    await feed.flushNow();
    assert.equal(posted.at(-1)!.type, 'snapshot');
    feed.dispose();
  });
});
