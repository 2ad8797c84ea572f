// Generates switchyard.d.ts, the public lane API file third parties build against, from src/api.ts: TypeScript's
// declaration emit (tsc --declaration --emitDeclarationOnly) of that one file, formatted by Biome.
//
//   node scripts/build-api.mjs           writes switchyard.d.ts (npm run build:api; npm run build runs it too)
//   node scripts/build-api.mjs --check   exits 1 when switchyard.d.ts differs from what src/api.ts generates
//
// src/api.ts declares every public type itself, so its declaration is self-contained (no bundling of declarations);
// a declaration that still imports a relative module is an error naming it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const SOURCE = 'src/api.ts';
const TARGET = 'switchyard.d.ts';
export const REGENERATE = 'npm run build:api';

const BANNER =
  `// Generated from ${SOURCE} by \`${REGENERATE}\` (scripts/build-api.mjs): do not edit by hand.\n` +
  '// A test fails when this file is stale.\n';

/** The declaration of src/api.ts as switchyard.d.ts holds it. */
export function generateApiDeclaration() {
  const out = mkdtempSync(join(tmpdir(), 'sy-api-dts-'));
  try {
    const base = JSON.parse(readFileSync(join(REPO, 'tsconfig.json'), 'utf8'));
    const config = {
      compilerOptions: {
        ...base.compilerOptions,
        noEmit: false,
        declaration: true,
        emitDeclarationOnly: true,
        // The config lives in a temp folder: the type packages are the repository's.
        typeRoots: [join(REPO, 'node_modules', '@types')],
        types: ['node'],
        rootDir: join(REPO, 'src'),
        outDir: join(out, 'dts'),
      },
      files: [join(REPO, SOURCE)],
    };
    writeFileSync(join(out, 'tsconfig.json'), JSON.stringify(config));
    const tsc = join(REPO, 'node_modules', '.bin', 'tsc');
    try {
      execFileSync(tsc, ['-p', join(out, 'tsconfig.json')], { cwd: REPO, encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      throw new Error(`tsc could not emit the declaration of ${SOURCE}:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    }
    const declaration = readFileSync(join(out, 'dts', 'api.d.ts'), 'utf8');
    const relativeImports = [...declaration.matchAll(/\bfrom\s+['"](\.[^'"]*)['"]|import\(['"](\.[^'"]*)['"]\)/g)];
    if (relativeImports.length) {
      const modules = [...new Set(relativeImports.map((m) => m[1] ?? m[2]))].join(', ');
      throw new Error(
        `the declaration of ${SOURCE} refers to ${modules}: a public type must be declared in ${SOURCE} itself (a plain interface or type, checked against the schema in test/types/publicApi.ts)`,
      );
    }
    const biome = join(REPO, 'node_modules', '.bin', 'biome');
    return execFileSync(biome, ['format', `--stdin-file-path=${TARGET}`], {
      cwd: REPO,
      input: BANNER + spaced(declaration),
      encoding: 'utf8',
    });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** A blank line before each top-level declaration (with its doc comment), which the declaration emit leaves out. */
function spaced(declaration) {
  const lines = declaration.split('\n');
  const starts = /^(\/\*\*|export |declare |interface |type )/;
  const inComment = /^(\/\*\*| \*|\/\/)/;
  return lines
    .map((line, i) =>
      i > 0 && starts.test(line) && lines[i - 1] && !inComment.test(lines[i - 1]) ? `\n${line}` : line,
    )
    .join('\n');
}

/** Compares `file` (default switchyard.d.ts) with the generated declaration; the message says how to regenerate. */
export function checkApiDeclaration(file = join(REPO, TARGET)) {
  const expected = generateApiDeclaration();
  let actual = '';
  try {
    actual = readFileSync(file, 'utf8');
  } catch {
    // A missing file is stale too.
  }
  if (actual === expected) return { ok: true };
  const expectedLines = expected.split('\n');
  const actualLines = actual.split('\n');
  let line = 0;
  while (line < expectedLines.length && expectedLines[line] === actualLines[line]) line += 1;
  const name = relative(REPO, file).startsWith('..') ? file : relative(REPO, file);
  return {
    ok: false,
    message:
      `${name} is stale: it differs from the declaration of ${SOURCE} from line ${line + 1} ` +
      `(generated: ${JSON.stringify(expectedLines[line] ?? '')}, file: ${JSON.stringify(actualLines[line] ?? '')}). Run \`${REGENERATE}\` and commit ${TARGET}.`,
  };
}

/** Writes switchyard.d.ts when it changed; says which. */
export function writeApiDeclaration() {
  const text = generateApiDeclaration();
  let previous = '';
  try {
    previous = readFileSync(join(REPO, TARGET), 'utf8');
  } catch {
    // Written below.
  }
  if (previous !== text) writeFileSync(join(REPO, TARGET), text);
  return `${TARGET} ${previous === text ? 'is up to date' : 'written'} (from ${SOURCE})`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const checkAt = process.argv.indexOf('--check');
  if (checkAt >= 0) {
    const file = process.argv[checkAt + 1];
    const result = checkApiDeclaration(file ? resolve(file) : undefined);
    if (!result.ok) {
      console.error(result.message);
      process.exit(1);
    }
    console.log(`${file ?? TARGET} is up to date with ${SOURCE}`);
  } else {
    console.log(writeApiDeclaration());
  }
}
