import { join } from 'node:path';
import { runDir } from '../store/runFiles';

export function journalPath(root: string, runId: string): string {
  return join(runDir(root, runId), 'journal.jsonl');
}

export function leasePath(root: string, runId: string): string {
  return join(runDir(root, runId), 'lease.json');
}
