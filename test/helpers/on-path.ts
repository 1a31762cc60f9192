import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The first `name` in PATH's directories, then in `also` (e.g. /usr/sbin, often not on PATH). */
export function onPath(name: string, also: readonly string[] = []): string | undefined {
  for (const dir of [...(process.env.PATH ?? '').split(delimiter), ...also]) {
    const path = join(dir, name);
    if (dir && existsSync(path)) return path;
  }
  return undefined;
}
