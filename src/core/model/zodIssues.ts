import type { z } from 'zod';

/** Formats zod issues as `field.path: message` lines, so an error names the field. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}
