import assert from 'node:assert/strict';
import { AddedLinesParser, unquotePath } from '../../../src/core/guards/addedLines';
import { conflictMarkerKind, findConflictMarkers } from '../../../src/core/guards/conflictMarkers';
import { parsePrePushInput } from '../../../src/core/guards/pushRange';

const L = '<'.repeat(7);
const R = '>'.repeat(7);
const B = '|'.repeat(7);
const E = '='.repeat(7);

describe('conflict markers', () => {
  const table: [line: string, kind: string | undefined][] = [
    [`${L} HEAD`, 'ours'],
    [`${L} HEAD:src/a.ts`, 'ours'],
    [`${R} feature/login`, 'theirs'],
    [`${R} 3f2a9c1 (add login)`, 'theirs'],
    [`${B} merged common ancestors`, 'base'], // diff3 / zdiff3
    [`${B} base`, 'base'],
    [L, 'ours'], // git merge-file without labels writes the bare marker
    [`${R}\r`, 'theirs'], // CRLF file
    [`${L}\tHEAD`, 'ours'],
    [E, undefined], // the separator alone is never enough: Markdown uses it
    [`${E} heading`, undefined],
    [`${E}|${E}`, undefined], // a Markdown table rule
    [`${L}< HEAD`, undefined], // 8 wide: not git's marker
    [`${L}HEAD`, undefined], // no space after the marker
    [` ${L} HEAD`, undefined], // not at line start
    [`// ${R} theirs`, undefined],
    [`"${L} HEAD"`, undefined],
    ['<<<<<< HEAD', undefined], // 6 wide
    ['', undefined],
  ];
  for (const [line, kind] of table) {
    it(`${JSON.stringify(line)} → ${kind ?? 'not a marker'}`, () => {
      assert.equal(conflictMarkerKind(line), kind);
    });
  }

  it('reports file and line of each marker', () => {
    const lines = [`a`, `${L} HEAD`, 'x', E, 'y', `${R} b`].map((text, i) => ({ line: i + 10, text }));
    assert.deepEqual(
      findConflictMarkers('src/a.ts', lines).map((f) => `${f.file}:${f.line}:${f.kind}`),
      ['src/a.ts:11:ours', 'src/a.ts:15:theirs'],
    );
  });
});

describe('added lines of a unified diff', () => {
  function parse(diff: string): string[] {
    const out: string[] = [];
    const parser = new AddedLinesParser((file, line, text) => out.push(`${file}:${line}:${text}`));
    for (const line of diff.split('\n')) parser.push(line);
    return out;
  }

  it('numbers added lines by the new file, across hunks and files', () => {
    const diff = [
      'diff --git a/src/a.ts b/src/a.ts',
      'index 1111111..2222222 100644',
      '--- a/src/a.ts',
      '+++ b/src/a.ts',
      '@@ -3,0 +4,2 @@ function x() {',
      '+one',
      '+two',
      '@@ -10 +12 @@',
      '-old',
      '+new',
      'diff --git a/docs/b.md b/docs/b.md',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/docs/b.md',
      '@@ -0,0 +1 @@',
      '+# title',
      '\\ No newline at end of file',
    ].join('\n');
    assert.deepEqual(parse(diff), ['src/a.ts:4:one', 'src/a.ts:5:two', 'src/a.ts:12:new', 'docs/b.md:1:# title']);
  });

  it('treats "+++" inside a hunk as an added line, not a header', () => {
    const diff = ['diff --git a/c b/c', '--- a/c', '+++ b/c', '@@ -1 +1,2 @@', '+++counter', '++x'].join('\n');
    assert.deepEqual(parse(diff), ['c:1:++counter', 'c:2:+x']);
  });

  it('skips binary files and deletions', () => {
    const diff = [
      'diff --git a/img.png b/img.png',
      'index 1..2 100644',
      'Binary files a/img.png and b/img.png differ',
      'diff --git a/gone.ts b/gone.ts',
      'deleted file mode 100644',
      '--- a/gone.ts',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-bye',
    ].join('\n');
    assert.deepEqual(parse(diff), []);
  });

  it('unquotes paths git quotes', () => {
    assert.equal(unquotePath('"b/caf\\303\\251 \\"x\\".txt"'), 'b/café "x".txt');
    assert.equal(unquotePath('b/plain.txt'), 'b/plain.txt');
    const diff = ['diff --git "a/t\\tab" "b/t\\tab"', '--- "a/t\\tab"', '+++ "b/t\\tab"', '@@ -0,0 +1 @@', '+x'].join(
      '\n',
    );
    assert.deepEqual(parse(diff), ['t\tab:1:x']);
  });

  it('rejects output it does not understand (so the guard fails safe instead of passing silently)', () => {
    assert.throws(() => parse(['diff --git a/x b/x', '+++ b/x', '@@ bogus @@'].join('\n')), /unexpected hunk header/);
    assert.throws(
      () => parse(['diff --git a/x b/x', '+++ b/x', '@@ -1 +1 @@', '?weird'].join('\n')),
      /unexpected line 4 in git diff output/,
    );
  });
});

describe('pre-push stdin', () => {
  const a = 'a'.repeat(40);
  const z = '0'.repeat(40);

  it('parses update and delete lines and ignores blank ones', () => {
    const updates = parsePrePushInput(
      `refs/heads/main ${a} refs/heads/main ${z}\n\nrefs/heads/(delete) ${z} refs/heads/old ${a}\n`,
    );
    assert.equal(updates.length, 2);
    assert.deepEqual(updates[0], {
      localRef: 'refs/heads/main',
      localSha: a,
      remoteRef: 'refs/heads/main',
      remoteSha: z,
    });
    assert.equal(updates[1]!.remoteRef, 'refs/heads/old');
  });

  it('accepts SHA-256 object ids', () => {
    assert.equal(parsePrePushInput(`HEAD ${'b'.repeat(64)} refs/heads/x ${'0'.repeat(64)}`).length, 1);
  });

  const bad: [string, RegExp][] = [
    [`refs/heads/main ${a} refs/heads/main`, /line 1 .*remoteSha/],
    [`refs/heads/main nothex refs/heads/main ${z}`, /localSha: not a full object id/],
    [`refs/heads/main ${a} refs/heads/main ${z} extra`, /more than 4 fields/],
  ];
  for (const [input, error] of bad) {
    it(`refuses ${JSON.stringify(input.slice(0, 40))}…`, () => assert.throws(() => parsePrePushInput(input), error));
  }
});
