import type { Context, MiddlewareHandler } from 'hono';
import { ApiError, ErrorNumber } from '../errors.js';
import type { ApiKey, ApiKeyCache } from '../keys/index.js';
import { decodeBasicAuth } from '../net/basic-auth.js';
import { announcesBody } from './admission.js';
import { readJsonBody } from './body.js';
import { queryParams } from './schemas.js';

export type AuthEnv = { Variables: { apiKey: ApiKey; requestId: string; body: unknown } };

const MAX_KEY_LENGTH = 200;

/**
 * The API key, from the spec's places: query `apikey`, header `apikey`, an `apikey` field of the
 * body (JSON or form), or else the HTTP basic-auth username. Given in two of the first three with
 * different values, it is refused: which one counts would be a guess, and a proxy or a log may
 * read the other (`-H "apikey: <bogus>" "?apikey=<valid>"` was taken; found by an outside probe).
 * The basic-auth username is read only when none of them has one: an Authorization header beside
 * a key may be a proxy's own login.
 */
async function findKeyIn(c: Context): Promise<string | undefined> {
  const given: [string, string][] = [];
  const fromQuery = queryParams(c).apikey;
  if (fromQuery) given.push(['query', fromQuery]);
  const fromHeader = c.req.header('apikey');
  // Node joins a header given twice with ", " (no key holds a comma): two keys, which one counts
  // would be a guess (it read as one invalid key; found by an outside probe).
  if (fromHeader?.includes(','))
    throw new ApiError(
      401,
      ErrorNumber.UNAUTHORIZED,
      'The apikey header was given more than once (or holds a comma): send one key, in one header.',
    );
  if (fromHeader) given.push(['header', fromHeader]);
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && (!given.length || announcesBody(c))) {
    const body = await readJsonBody(c);
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      const value = (body as Record<string, unknown>).apikey;
      if (typeof value === 'string' && value) given.push(['body', value]);
    }
  }
  if (new Set(given.map(([, key]) => key)).size > 1)
    throw new ApiError(
      401,
      ErrorNumber.UNAUTHORIZED,
      `API key given with different values in the ${given.map(([where]) => where).join(', ')}: send one key, in one place.`,
    );
  return given[0]?.[1] ?? (decodeBasicAuth(c.req.header('authorization'))?.user || undefined);
}

/** The key of the request, looked up in `keys` (src/keys/cache.ts: memory, then the database). */
export function requireApiKey(keys: ApiKeyCache): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const key = await findKeyIn(c);
    if (!key)
      throw new ApiError(
        401,
        ErrorNumber.UNAUTHORIZED,
        'API key required: send it as the apikey query parameter, apikey header, body field, or basic-auth username.',
      );
    const apiKey = key.length <= MAX_KEY_LENGTH ? await keys.find(key) : undefined;
    if (!apiKey) throw new ApiError(401, ErrorNumber.UNAUTHORIZED, 'Invalid API key.');
    c.set('apiKey', apiKey);
    await next();
  };
}
