import type { Context } from 'hono';
import { ApiError, ErrorNumber } from '../errors.js';
import { hasNul } from '../json.js';

const NO_BODY = Symbol('no body');

/**
 * The request's JSON body, parsed once per request. An empty body is `undefined`; anything
 * that is not JSON, or holds a NUL character in a string, is a 400 (never a 500).
 */
export async function readJsonBody(c: Context): Promise<unknown> {
  const cached = c.get('body' as never) as unknown;
  if (cached !== undefined) return cached === NO_BODY ? undefined : cached;
  const text = await c.req.text();
  if (text.trim() === '') {
    c.set('body' as never, NO_BODY as never);
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(400, ErrorNumber.BAD_REQUEST, 'Malformed JSON body.');
  }
  // Only an escaped NUL can be in a parsed string (a raw one is not JSON): look for it then.
  if (text.includes('\\u0000') && hasNul(value))
    throw new ApiError(
      400,
      ErrorNumber.BAD_REQUEST,
      'Strings in the body must not contain the NUL character (\\u0000).',
    );
  c.set('body' as never, value as never);
  return value;
}
