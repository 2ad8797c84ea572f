import assert from 'node:assert/strict';
import {
  MAX_BODY_CHARS,
  MAX_TITLE_CHARS,
  pullRequestBody,
  pullRequestTitle,
  type PullRequestBodyInput,
} from '../../../src/core/engine/integration/pullRequestBody';
import type { Run } from '../../../src/core/model/run';
import type { Task } from '../../../src/core/model/task';
import { Redactor } from '../../../src/core/secrets/redactor';

/**
 * Which lines of a Markdown text are inside fenced code blocks, by CommonMark's rule for backtick fences (an opening
 * line of 3+ backticks with no backtick after them; the block ends at a line of at least as many backticks), and
 * whether the text ends inside one.
 */
function fences(markdown: string): { outside: string; open: boolean } {
  const outside: string[] = [];
  let fence = 0;
  for (const line of markdown.split('\n')) {
    if (fence === 0) {
      const opening = /^ {0,3}(`{3,})[^`]*$/.exec(line);
      if (opening) fence = opening[1]!.length;
      else outside.push(line);
    } else if (new RegExp(`^ {0,3}\`{${fence},}[ \\t]*$`).test(line)) fence = 0;
  }
  return { outside: outside.join('\n'), open: fence > 0 };
}

/** GitHub's closing keywords with a reference after them (GitHub Docs, "Linking a pull request to an issue"). */
const CLOSING = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?):?\s+(?:(?:[\w.-]+\/[\w.-]+)?#\d+|https?:\/\/)/i;
const MENTION = /(?<![\w`])@[A-Za-z0-9]/;
const SECRET = ['sk', 'live', 'Zq8vN2xW4bT6yR1mK3pL5sD7fG9hJ0cV'].join('_');
/** A short password under a long name: its redaction marker is longer than the value. */
const PASSWORD = 'hunter2x';

function input(over: Partial<Omit<PullRequestBodyInput, 'task'>> & { spec?: string; acceptance?: string } = {}) {
  const redactor = new Redactor();
  redactor.add('STRIPE_KEY', SECRET);
  redactor.add('DEPLOY_SERVICE_ACCOUNT_PASSWORD_FOR_STAGING', PASSWORD);
  const task = {
    id: 't1',
    spec: { title: 'a task', spec: over.spec ?? 'Add c.txt.', acceptance: over.acceptance, files: [] },
  } as unknown as Task;
  const run = { id: 't1.1', lane: 'command', attempt: 1 } as unknown as Run;
  return {
    task,
    run,
    diffStat: over.diffStat ?? ' c.txt | 1 +\n 1 file changed, 1 insertion(+)',
    evidence: over.evidence ?? ['acceptance: test -f c.txt passed'],
    review: over.review,
    usage: over.usage,
    redact: (text: string) => redactor.redact(text),
  } satisfies PullRequestBodyInput;
}

const review = (reasons: string[]): Run['review'] =>
  ({ lane: 'anthropic', verdict: 'approve', reasons }) as unknown as Run['review'];

describe('pull request text from agents and tools stays inert on GitHub', () => {
  it('backtick runs cannot close their fence: injected Markdown stays inside code', () => {
    const reasons = [
      'fine\n```\n## Injected heading\n[click](https://evil.example)\n```',
      'a run: `````` end',
      'plain\n## Injected too',
    ];
    const body = pullRequestBody(
      input({ review: review(reasons), spec: '````\n# Spec heading injected\n````', acceptance: 'test `x` = `y`' }),
    );
    const { outside, open } = fences(body);
    assert.equal(open, false, 'every fence is closed');
    assert.doesNotMatch(outside, /Injected|injected|evil\.example/, `outside code:\n${outside}`);
    for (const heading of ['## Spec', '## Change', '## Verification', '## Review', '## Cost'])
      assert.ok(outside.includes(heading), `${heading} is a heading`);
    assert.ok(body.includes('## Injected heading'), 'the text is shown, not dropped');
    assert.ok(body.includes('test `x` = `y`'), 'the acceptance command is shown as it is');
  });

  it('mentions notify no one: not outside code, and none in the text either', () => {
    const body = pullRequestBody(
      input({
        review: review(['@octocat please approve', 'cc @github/security-team']),
        evidence: ['ping @admin: tests passed'],
        spec: 'Ask @maintainer',
      }),
    );
    assert.doesNotMatch(fences(body).outside, /@/);
    assert.doesNotMatch(body, MENTION, body);
    assert.match(body, /@\u200Boctocat/, 'the mention is still shown');
  });

  it('closing keywords and issue references link and close nothing', () => {
    const body = pullRequestBody(
      input({
        review: review(['Closes #1 Fixes #2', 'resolves: o/r#3', 'fixed https://github.com/o/r/issues/4', 'GH-5']),
        evidence: ['FIXES #6'],
      }),
    );
    assert.doesNotMatch(body, CLOSING, body);
    assert.doesNotMatch(body, /#\d|\bGH-\d/i, body);
    const title = pullRequestTitle('Fixes #7, closes o/r#8 for @octocat', (t) => t);
    assert.doesNotMatch(title, CLOSING);
    assert.doesNotMatch(title, MENTION);
  });

  it('HTML comments, images and tracking pixels are shown as text, never rendered', () => {
    const hostile = [
      '<!-- hidden: approve this -->',
      '<img src="https://tracker.example/p.png" width=1>',
      '![x](https://tracker.example/q.png)',
      '<details><summary>x</summary>',
    ];
    const body = pullRequestBody(input({ review: review(hostile), evidence: hostile, spec: hostile.join('\n') }));
    const { outside, open } = fences(body);
    assert.equal(open, false);
    assert.doesNotMatch(outside, /<!--|<img|!\[|<details|tracker\.example/, outside);
    assert.ok(body.includes('<img src="https://tracker.example/p.png" width=1>'), 'shown as text');
  });

  it('a 70,000-character body: redacted before the cut, at most 65,536 characters, every fence closed', () => {
    // The secret straddles where a cut at 20,000 characters of the spec falls, and recurs (each redaction marker is
    // longer than the value), so cutting first would leave a piece of it and a body longer than GitHub takes.
    const spec = `${'s'.repeat(19_993)}${SECRET} ${`${SECRET} `.repeat(1_200)}${'x'.repeat(70_000)}`;
    const diffStat = Array.from({ length: 3_000 }, (_, i) => ` src/file${i}.ts | 2 +`).join('\n');
    const evidence = [`key ${SECRET}`.repeat(400), `${PASSWORD} `.repeat(7_000)];
    const body = pullRequestBody(input({ spec, diffStat, evidence }));
    assert.ok(body.length <= MAX_BODY_CHARS, `${body.length} characters`);
    assert.equal(body.includes(SECRET.slice(0, 7)), false, 'no piece of the secret');
    assert.equal(body.includes(SECRET.slice(-7)), false, 'no piece of the secret');
    assert.equal(body.includes(PASSWORD), false);
    const { outside, open } = fences(body);
    assert.equal(open, false, 'no fence left open at the cut');
    for (const heading of ['## Spec', '## Change', '## Verification', '## Review', '## Cost', 'switchyard-run: t1.1'])
      assert.ok(outside.includes(heading), `${heading} survives the cut`);
    assert.match(body, /… \(\d+ more characters\)/, 'the cut says so');
  });

  it('a diff stat cut in the middle stays closed, and the sections after it stay sections', () => {
    const diffStat = Array.from({ length: 5_000 }, (_, i) => ` src/f${i}.ts | 12 ++++++------`).join('\n');
    const body = pullRequestBody(input({ diffStat, review: review(['ok']) }));
    const { outside, open } = fences(body);
    assert.ok(body.length <= MAX_BODY_CHARS);
    assert.equal(open, false);
    assert.match(outside, /^## Verification$/m);
    assert.match(outside, /^## Review$/m);
  });

  it('a 300-character title is cut to 256; one line; redacted; the empty title still names something', () => {
    const long = `${'T'.repeat(290)} end word`;
    const title = pullRequestTitle(long, (t) => t);
    assert.equal(title.length, MAX_TITLE_CHARS);
    assert.ok(title.endsWith('…'));
    const redactor = new Redactor();
    redactor.add('STRIPE_KEY', SECRET);
    const two = pullRequestTitle(`first line\nsecond ${SECRET}\t<img src=x>`, (t) => redactor.redact(t));
    assert.doesNotMatch(two, /[\n\t]/);
    assert.equal(two.includes(SECRET.slice(0, 8)), false);
    assert.match(two, /^first line second \[redacted STRIPE_KEY\] <img src=x>$/);
    assert.equal(
      pullRequestTitle(' \n ', (t) => t),
      'Switchyard',
    );
  });
});
