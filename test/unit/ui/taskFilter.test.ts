import assert from 'node:assert/strict';
import type { Task } from '../../../src/core/model/task';
import {
  NO_FILTER,
  filterDescription,
  isFiltering,
  readTaskFilter,
  taskMatches,
} from '../../../src/ui/views/taskFilter';

function task(id: string, state: Task['state'], title: string, spec = ''): Task {
  return {
    id,
    spec: { title, spec, files: [], dependsOn: [], priority: 50 },
    state,
    baseCommit: 'abc',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    attempts: 0,
    generation: 0,
  } as Task;
}

describe("the Tasks view's filter", () => {
  const parser = task('t1', 'FAILED', 'Fix the Parser', 'tokens are lost at line ends');
  const docs = task('t2', 'READY', 'Write the docs');
  const draft = task('t13', 'DRAFT', 'Draft idea');

  it('shows every task without a filter', () => {
    assert.equal(isFiltering(NO_FILTER), false);
    for (const t of [parser, docs, draft]) assert.equal(taskMatches(NO_FILTER, t, 'codex'), true);
    assert.equal(filterDescription(NO_FILTER), undefined);
  });

  it('keeps the tasks in the picked states and lanes', () => {
    const failedOrDraft = { ...NO_FILTER, states: ['FAILED' as const, 'DRAFT' as const] };
    assert.deepEqual(
      [parser, docs, draft].filter((t) => taskMatches(failedOrDraft, t, 'codex')).map((t) => t.id),
      ['t1', 't13'],
    );
    const onClaude = { ...NO_FILTER, lanes: ['claude-code'] };
    assert.equal(taskMatches(onClaude, parser, 'claude-code'), true);
    assert.equal(taskMatches(onClaude, parser, 'codex'), false);
    assert.equal(taskMatches({ ...failedOrDraft, lanes: ['codex'] }, docs, 'codex'), false, 'both must hold');
  });

  it('matches the text in the id, title or spec, ignoring case', () => {
    const byText = (text: string): string[] =>
      [parser, docs, draft].filter((t) => taskMatches({ ...NO_FILTER, text }, t, 'codex')).map((t) => t.id);
    assert.deepEqual(byText('parser'), ['t1']);
    assert.deepEqual(byText('LINE ENDS'), ['t1']);
    assert.deepEqual(byText('t1'), ['t1', 't13']);
    assert.deepEqual(byText('nothing like it'), []);
  });

  it('says the filter in the description, as one plain line', () => {
    assert.equal(
      filterDescription({ states: ['FAILED', 'READY'], lanes: ['codex'], text: 'parser' }),
      'Filter: FAILED, READY · lane codex · “parser”',
    );
    assert.equal(filterDescription({ ...NO_FILTER, text: 'a\u001b[31m\nb' }), 'Filter: “a b”');
  });

  it('reads a stored filter back, and no filter from a damaged one', () => {
    assert.deepEqual(readTaskFilter({ states: ['DONE'], text: '  x ' }), { states: ['DONE'], lanes: [], text: 'x' });
    assert.deepEqual(readTaskFilter(undefined), NO_FILTER);
    assert.deepEqual(readTaskFilter({ states: ['NOT_A_STATE'] }), NO_FILTER);
    assert.deepEqual(readTaskFilter('FAILED'), NO_FILTER);
  });
});
