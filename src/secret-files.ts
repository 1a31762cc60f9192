import { statSync } from 'node:fs';
import { log } from './log.js';

/**
 * Says so when a file holding a secret may be read by more than its owner: by anyone
 * (`others`), or by its group too (`group-or-others`, for a key only Tollgate should read; a TLS
 * key is often shared with a group such as Debian's ssl-cert). The file is used all the same.
 */
export function warnIfReadable(file: string, what: string, by: 'others' | 'group-or-others'): void {
  const mode = statSync(file).mode & 0o777;
  if (mode & (by === 'others' ? 0o007 : 0o077))
    log.warn({ path: file, mode: mode.toString(8) }, `${what} is readable by others; chmod 600 it`);
}
