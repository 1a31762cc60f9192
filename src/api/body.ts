import type { Context } from 'hono';
import { ApiError, ErrorNumber } from '../errors.js';
import { badStrings, duplicateKey, utf8Text } from '../json.js';
import { isJsonType } from '../net/content-encoding.js';

const NO_BODY = Symbol('no body');

/**
 * The request's body, parsed once per request: JSON, or an HTML form
 * (`application/x-www-form-urlencoded`, what `curl -d apikey=…` sends) as an object of strings.
 * An empty body is `undefined`; anything that does not parse, is not UTF-8, holds a NUL character
 * or half a UTF-16 surrogate pair in a string, or names a form field twice is a 400 (never a 500,
 * and never text other than what was sent).
 */
export async function readJsonBody(c: Context): Promise<unknown> {
  const cached = c.get('body' as never) as unknown;
  if (cached !== undefined) return cached === NO_BODY ? undefined : cached;
  const text = utf8Text(new Uint8Array(await c.req.arrayBuffer()));
  if (text === undefined)
    throw new ApiError(400, ErrorNumber.BAD_REQUEST, 'The body is not valid UTF-8.');
  if (text.trim() === '') {
    c.set('body' as never, NO_BODY as never);
    return undefined;
  }
  const type = c.req.header('content-type')?.trim() || undefined;
  const form = /^application\/x-www-form-urlencoded\b/i.test(type ?? '');
  // A body labelled as something else (text/plain, XML, multipart) was read as JSON; said
  // plainly instead (found by an outside probe). None given is taken as JSON.
  if (type !== undefined && !form && !isJsonType(type))
    throw new ApiError(
      415,
      ErrorNumber.BAD_REQUEST,
      `Content-Type ${type.slice(0, 60)} is not taken: send the body as JSON with Content-Type: application/json (or as a form, application/x-www-form-urlencoded).`,
    );
  // JSON sent as a form (`curl -d '{…}'` without its Content-Type): every field would be missing,
  // and "address: is required" would not say why.
  if (form && /^\s*[[{]/.test(text))
    throw new ApiError(
      400,
      ErrorNumber.BAD_REQUEST,
      'The body is JSON but its Content-Type says a form (application/x-www-form-urlencoded): send it with Content-Type: application/json.',
    );
  let value: unknown;
  try {
    value = form ? formFields(text) : JSON.parse(text);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError(400, ErrorNumber.BAD_REQUEST, 'Malformed JSON body.');
  }
  // As a form field given twice (formFields): which one counts would be a guess (found by an
  // outside probe: the second webhook of two was stored).
  const twice = form ? undefined : duplicateKey(text);
  if (twice !== undefined)
    throw new ApiError(
      400,
      ErrorNumber.BAD_REQUEST,
      `The body gives ${JSON.stringify(twice.slice(0, 50))} more than once: give each field once.`,
    );
  // A form's %00 decodes to NUL (and a bad escape to U+FFFD, never a lone surrogate); in JSON
  // only an escape can make a NUL or a lone surrogate.
  const bad = badStrings(value, form ? undefined : text);
  if (bad === 'nul')
    throw new ApiError(
      400,
      ErrorNumber.BAD_REQUEST,
      'Strings in the body must not contain the NUL character (\\u0000).',
    );
  if (bad === 'surrogate')
    throw new ApiError(
      400,
      ErrorNumber.BAD_REQUEST,
      'Strings in the body must not contain half of a UTF-16 surrogate pair (such as \\ud800 alone).',
    );
  c.set('body' as never, value as never);
  return value;
}

/** A form body's fields; each may be given once. */
function formFields(text: string): Record<string, string> {
  const fields = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(text)) {
    if (fields.has(name))
      throw new ApiError(
        400,
        ErrorNumber.BAD_REQUEST,
        `Form field ${JSON.stringify(name.slice(0, 50))} is given more than once.`,
      );
    fields.set(name, value);
  }
  // fromEntries defines each field as the object's own (a field named __proto__ stays a field).
  return Object.fromEntries(fields);
}
