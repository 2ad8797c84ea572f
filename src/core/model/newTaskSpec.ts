import type { z } from 'zod';
import { TaskSpec } from './task';

const LINE_BREAK = /[\n\r\u000b\u000c\u0085\u2028\u2029]/;
const CONTROL = /[\u0000-\u0009\u000e-\u001f\u007f-\u009f]/;

/**
 * A task spec as it enters from a user, a task file or VS Code: the stored
 * shape (TaskSpec) plus what only new input must satisfy, so a task stored
 * by an older version still loads. The title is one line of text without
 * control characters; the spec and the acceptance command hold no NUL
 * (nothing can pass one to a process); every target file is a relative path
 * inside the repository, stored normalized (`./src//a.ts` → `src/a.ts`).
 */
export const NewTaskSpec = TaskSpec.superRefine((spec, ctx) => {
  const title = titleProblem(spec.title);
  if (title) ctx.addIssue({ code: 'custom', path: ['title'], message: title });
  for (const field of ['spec', 'acceptance'] as const) {
    const at = spec[field]?.indexOf('\u0000') ?? -1;
    if (at >= 0)
      ctx.addIssue({
        code: 'custom',
        path: [field],
        message: `contains a NUL character (at character ${at + 1}); a task's text cannot hold one`,
      });
  }
  spec.files.forEach((file, index) => {
    const problem = repoPathProblem(file);
    if (problem) ctx.addIssue({ code: 'custom', path: ['files', index], message: problem });
  });
}).transform((spec) => ({ ...spec, files: spec.files.map(normalizeRepoPath) }));
export type NewTaskSpec = z.output<typeof NewTaskSpec>;

/** Why a title is not one line of text, or undefined when it is. */
export function titleProblem(title: string): string | undefined {
  const lineBreak = title.search(LINE_BREAK);
  if (lineBreak >= 0)
    return `a title is one line; this one has a line break at character ${lineBreak + 1} (put the details in the spec)`;
  const control = title.search(CONTROL);
  if (control >= 0)
    return `a title is plain text; this one has the control character U+${title.charCodeAt(control).toString(16).toUpperCase().padStart(4, '0')} at character ${control + 1}`;
  return undefined;
}

/**
 * Why `file` is not a relative path inside the repository, or undefined.
 * Backslashes count as separators too, so a path that would escape on
 * Windows is refused everywhere.
 */
export function repoPathProblem(file: string): string | undefined {
  if (file.includes('\u0000')) return `"${file.replace(/\u0000/g, '\\0')}" contains a NUL character`;
  const slashed = file.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed)) {
    return `"${file}" is an absolute path; target files are relative to the repository root, e.g. "src/app.ts"`;
  }
  if (normalizeRepoPath(slashed).split('/')[0] === '..')
    return `"${file}" points outside the repository; target files are paths inside it, relative to its root`;
  return undefined;
}

/**
 * `./src//a/../b.ts` → `src/b.ts` (POSIX rules, as `path.posix.normalize`; kept free of `node:path` for the webview).
 */
export function normalizeRepoPath(file: string): string {
  const out: string[] = [];
  for (const segment of file.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..' && out.length && out[out.length - 1] !== '..') out.pop();
    else out.push(segment);
  }
  const joined = out.join('/') || '.';
  return file.endsWith('/') && joined !== '.' ? `${joined}/` : joined;
}
