import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { SwitchyardError } from '../errors';
import { STATE_DIR } from '../store/stateDir';

/**
 * Left in `.switchyard/` by the one-way migration: the files backend refuses to open, so nobody writes to the old copy.
 */
export const MigratedMarker = z
  .object({
    to: z.literal('postgres'),
    target: z.string(),
    project: z.string(),
    at: z.string(),
    tasks: z.number(),
    runs: z.number(),
    events: z.number(),
  })
  .strict();
export type MigratedMarker = z.infer<typeof MigratedMarker>;

export function migratedMarkerPath(root: string): string {
  return join(root, STATE_DIR, 'migrated.json');
}

export async function readMigratedMarker(root: string): Promise<MigratedMarker | undefined> {
  let text: string;
  try {
    text = await readFile(migratedMarkerPath(root), 'utf8');
  } catch {
    return undefined;
  }
  const parsed = MigratedMarker.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new SwitchyardError(
      'store-corrupt',
      `${migratedMarkerPath(root)} is not a migration record; delete it if this project still uses the files backend`,
    );
  return parsed.data;
}

export async function writeMigratedMarker(root: string, marker: MigratedMarker): Promise<void> {
  await writeFile(migratedMarkerPath(root), `${JSON.stringify(marker, null, 2)}\n`, { flag: 'wx' });
}

/** The error the files backend gives once the project moved to PostgreSQL. */
export function migratedError(root: string, marker: MigratedMarker): SwitchyardError {
  return new SwitchyardError(
    'backend-migrated',
    `this project moved to PostgreSQL (${marker.target}, project ${marker.project}) on ${marker.at}: use the postgres backend (switchyard.backend "postgres" in VS Code, --backend postgres or SWITCHYARD_BACKEND=postgres for the CLI). The files under ${join(root, STATE_DIR)} are kept as they were; delete ${migratedMarkerPath(root)} only to go back to them.`,
  );
}
