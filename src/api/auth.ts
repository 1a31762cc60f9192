import type { Context, MiddlewareHandler } from 'hono';
import { ApiError, ErrorNumber } from '../errors.js';
import type { ApiKey, ApiKeyCache } from '../keys/index.js';
import { decodeBasicAuth } from '../net/basic-auth.js';
import { readJsonBody } from './body.js';
import { queryParams } from './schemas.js';

export type AuthEnv = { Variables: { apiKey: ApiKey; requestId: string; body: unknown } };

const MAX_KEY_LENGTH = 200;

/**
 * The API key, from any one of the spec's four places: query `apikey`, header `apikey`,
 * HTTP basic-auth username (no password), or an `apikey` field of the body (JSON or form).
 */
async function findKeyIn(c: Context): Promise<string | undefined> {
  const fromQuery = queryParams(c).apikey;
  if (fromQuery) return fromQuery;
  const fromHeader = c.req.header('apikey');
  if (fromHeader) return fromHeader;
  const fromBasic = decodeBasicAuth(c.req.header('authorization'))?.user;
  if (fromBasic) return fromBasic;
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
    const body = await readJsonBody(c);
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      const value = (body as Record<string, unknown>).apikey;
      if (typeof value === 'string' && value) return value;
    }
  }
  return undefined;
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
