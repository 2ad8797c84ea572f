/** What a task document holds: the title (its first line) and the instruction (the rest). */
export interface TaskDocumentSpec {
  title: string;
  spec: string;
}

/** The hint a new task document starts with; it is left out when the document is read. */
export const TASK_DOCUMENT_HINT =
  '<!-- New Switchyard task: the first line is the title, the lines after it the instruction for the agent. Submit with Ctrl+Enter (Cmd+Enter) or Submit Task in the editor title; close without saving to discard. -->';

/**
 * Reads a task document: HTML comments are dropped, the first non-empty line is the title (a leading Markdown `#`
 * heading marker removed), everything after it the instruction (trimmed). A document without a title is an error
 * saying so.
 */
export function parseTaskDocument(text: string): TaskDocumentSpec {
  const lines = text.replace(/<!--[\s\S]*?-->/g, '').split(/\r?\n/);
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first < 0) throw new Error('the task document is empty: write the title on its first line');
  const title = (lines[first] ?? '').trim().replace(/^#+\s*/, '');
  if (!title) throw new Error('the task document has no title: write it on its first line');
  return {
    title,
    spec: lines
      .slice(first + 1)
      .join('\n')
      .trim(),
  };
}
