import * as assert from 'node:assert/strict';
import { TASK_DOCUMENT_HINT, parseTaskDocument } from '../../../src/core/model/taskDocument';

describe('parseTaskDocument: a task written in an editor', function () {
  it('takes the first line as the whole title and the rest as the instruction', function () {
    const title = 'Add input validation to the signup form, including the email, the password and the display name';
    const body = 'Check each field on the server.\n\n- email: RFC 5322\n- password: 12+';
    const doc = `${TASK_DOCUMENT_HINT}\n# ${title}\n\n${body}\n`;
    assert.deepEqual(parseTaskDocument(doc), {
      title,
      spec: 'Check each field on the server.\n\n- email: RFC 5322\n- password: 12+',
    });
    assert.ok(title.length > 60, 'a title longer than 60 characters is kept whole');
  });

  it('drops comments anywhere and accepts CRLF; a title alone has an empty instruction', function () {
    assert.deepEqual(parseTaskDocument('\r\n<!-- note -->Fix the build\r\n'), { title: 'Fix the build', spec: '' });
    assert.deepEqual(parseTaskDocument('Fix it\r\n<!-- x\ny -->\r\nline two\r\n'), {
      title: 'Fix it',
      spec: 'line two',
    });
  });

  it('refuses a document without a title', function () {
    assert.throws(() => parseTaskDocument(`${TASK_DOCUMENT_HINT}\n\n  \n`), /empty: write the title on its first line/);
    assert.throws(() => parseTaskDocument('#\nbody'), /has no title/);
  });
});
