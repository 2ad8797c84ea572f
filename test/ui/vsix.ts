import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../harness/codeServer';

/**
 * Packages the extension (Switchyard, or one under `cwd`) as a user gets it: `vsce package --no-dependencies`. Returns
 * the .vsix path.
 */
export function packageExtension(outDir: string, cwd = REPO_ROOT, name = 'switchyard'): string {
  mkdirSync(outDir, { recursive: true });
  const vsix = join(outDir, `${name}.vsix`);
  rmSync(vsix, { force: true });
  const vsce = join(REPO_ROOT, 'node_modules', '.bin', 'vsce');
  // --no-rewrite-relative-links: the README's images (media/) are packed, and the repository URL is not a
  // public host vsce could rewrite them to. --skip-license: never prompt (no stdin in CI); LICENSE is still packed.
  execFileSync(vsce, ['package', '--no-dependencies', '--no-rewrite-relative-links', '--skip-license', '--out', vsix], {
    cwd,
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 120_000,
  });
  return vsix;
}

/** The file names in a zip (a .vsix), read from its central directory. */
export function zipEntries(file: string): string[] {
  const zip = readFileSync(file);
  const EOCD = 0x06054b50;
  const CENTRAL = 0x02014b50;
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error(`${file} is not a zip file (no end of central directory)`);
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(offset) !== CENTRAL) throw new Error(`${file}: bad central directory entry ${n}`);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    names.push(zip.toString('utf8', offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}
