import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project root (where package.json, config/ and sql/ are), whether this code runs from
 * src/ (tsx, tests) or from dist/src/ (the built binary).
 */
function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'config'))) return dir;
    dir = dirname(dir);
  }
  throw new Error('cannot find the Tollgate project root (package.json beside config/)');
}

export const PROJECT_ROOT = findRoot();

/** A path inside the project, e.g. projectPath('config', 'default.json'). */
export function projectPath(...parts: string[]): string {
  return join(PROJECT_ROOT, ...parts);
}
