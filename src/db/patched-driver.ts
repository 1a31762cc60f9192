import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PermanentError } from '../errors.js';

/**
 * Tollgate runs postgres.js with a patch of its own (patches/postgres+3.4.9.patch, applied by
 * patch-package at `npm ci`; README "Patched dependency"): without it a connection the server
 * closes during a transaction can stay unusable for good, and a failed transaction's later
 * statements can be committed outside it, and after an outage a query can wait out a reconnect
 * pause of up to 20 s with the server back, and a NULL inside an array is read as the text
 * "NULL". An install that skipped the postinstall
 * (`npm ci --ignore-scripts`, a copied node_modules) would run the published code silently, so
 * every process checks, before its first pool, that the code it loads carries the patch.
 */

/** What each patched file must contain, and what it mends; in both builds (src/ and cjs/src/). */
const MARKS = ['src', 'cjs/src'].flatMap((build) => [
  {
    file: `${build}/connection.js`,
    text: 'function writeAfterClose(',
    mends: 'a write after the socket closed (porsager/postgres#1208)',
  },
  {
    file: `${build}/connection.js`,
    text: 'options.shared.retries < closedRetries',
    mends: "an outage's reconnect pause kept after the server is back",
  },
  {
    file: `${build}/index.js`,
    text: 'c.closes !== closes',
    mends: "a transaction's statements after its session ended (porsager/postgres#1216)",
  },
  {
    file: `${build}/types.js`,
    text: 'function arrayElement(',
    mends: 'a NULL in an array read as the text "NULL" (porsager/postgres#1124)',
  },
]);

export class UnpatchedDriverError extends PermanentError {
  constructor(message: string) {
    super(message);
    this.name = 'UnpatchedDriverError';
  }
}

/** The patch's parts missing from the driver's package in `dir`: empty when it is patched. */
export function missingDriverPatches(dir: string): string[] {
  return MARKS.filter(({ file, text }) => {
    try {
      return !readFileSync(join(dir, file), 'utf8').includes(text);
    } catch {
      return true;
    }
  }).map(({ file, mends }) => `${file}: ${mends}`);
}

/** The directory of the driver's package this process loads (`import 'postgres'`). */
export function loadedDriverDir(): string {
  // Resolved as require would (cjs/src/index.js: the package's "default" export); the package's
  // directory is two above, whichever build is imported.
  return dirname(dirname(dirname(createRequire(import.meta.url).resolve('postgres'))));
}

const checked = new Set<string>();

/** Throws UnpatchedDriverError when the driver in `dir` lacks the patch; each directory once. */
export function assertPatchedDriver(dir = loadedDriverDir()): void {
  if (checked.has(dir)) return;
  const missing = missingDriverPatches(dir);
  if (missing.length)
    throw new UnpatchedDriverError(
      `postgres.js in ${dir} is installed without Tollgate's patch (patches/postgres+3.4.9.patch; missing: ${missing.join('; ')}). ` +
        'Install with `npm ci` (its postinstall applies the patch; not with --ignore-scripts), or run `npx patch-package` where the dependencies are installed.',
    );
  checked.add(dir);
}
