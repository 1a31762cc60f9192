import { NETWORK_SYMBOLS } from '../config/networks.js';
import type { Context } from 'hono';
import { z } from 'zod';
import { ApiError, ErrorNumber } from '../errors.js';

/**
 * The zod schemas of the API: the single source for request validation, the OpenAPI document
 * and the TypeScript types.
 */

/**
 * The query parameters made by intParam, with their bounds: documented as the integers they
 * are (`type: integer`), where their zod schema reads the string a query carries.
 */
export const INT_PARAMS = new WeakMap<
  z.ZodType,
  { minimum: number; maximum: number; default?: number }
>();

/** A whole number from a query string (digits only; "", "1.5", "1e3" are refused). */
export function intParam(opts: {
  min: number;
  max: number;
  default?: number;
  description: string;
}) {
  const digits = z.string().regex(/^-?\d{1,400}$/, 'must be a whole number');
  // A number past a bound, however long, is told as past it (`limit=-1`: at least 1), not as no
  // number: read as a BigInt and held just past the bound it passes.
  const bounded = digits
    .transform((v) => {
      const n = BigInt(v);
      if (n > BigInt(opts.max)) return opts.max + 1;
      return n < BigInt(opts.min) ? opts.min - 1 : Number(n);
    })
    .pipe(z.int().min(opts.min).max(opts.max));
  const schema =
    opts.default === undefined ? bounded : bounded.optional().transform((v) => v ?? opts.default!);
  const described = schema.meta({
    description: opts.description,
    ...(opts.default !== undefined ? { default: opts.default } : {}),
  });
  INT_PARAMS.set(described, {
    minimum: opts.min,
    maximum: opts.max,
    ...(opts.default !== undefined ? { default: opts.default } : {}),
  });
  return described;
}

export const MAX_PAGE = 1_000_000;

export const PageQuery = (required: boolean) => ({
  page: intParam({
    min: 1,
    max: MAX_PAGE,
    ...(required ? {} : { default: 1 }),
    description: 'Page number, from 1.',
  }),
  limit: intParam({
    min: 1,
    max: 100,
    ...(required ? {} : { default: 50 }),
    description: 'Items per page, 1 to 100.',
  }),
});

export const Address = z.string().min(1).max(256).meta({
  description:
    'Wallet address, exactly as on its chain (no surrounding spaces). EVM: 0x and 40 hex digits, a mixed-case one with a valid EIP-55 checksum; Bitcoin-family: base58check or bech32/bech32m, checksum verified.',
});
export const WebhookUrl = z.string().min(1).max(2048).meta({
  description:
    'http(s) URL that receives the webhooks; must not resolve to a private, loopback or link-local address unless the operator allows that range.',
});

export const ErrorBody = z
  .object({
    code: z.int().meta({ description: 'Error number (same as status).' }),
    status: z.int().meta({ description: 'Error number (same as code).' }),
    message: z.string(),
    detail: z.string().optional().meta({
      description:
        'Not in the spec: the specific reason, where `message` is the text the spec shows for the number (stream/create `Invalid webhook.`, stream/delete `Invalid Address.`).',
    }),
  })
  .meta({ id: 'Error' });

export function envelope<T extends z.ZodType>(data: T, paged = false) {
  return z.object({
    code: z.literal(0),
    message: z.literal('OK'),
    data,
    ...(paged ? { page_count: z.int().min(0) } : {}),
  });
}

/** Whether a name the caller sent may be put into a message (a plain name, not their text). */
export const echoable = (name: string): boolean => /^[\w.-]{1,40}$/.test(name);

/**
 * The query string's parameters, each given once. A parameter given twice (`address=A&address=B`)
 * is refused rather than one of its values picked: a proxy, a gateway or the caller's own log may
 * read the other one (the last, where hono reads the first), and the request would then be
 * screened for an address it does not show.
 */
export function queryParams(c: Context): Record<string, string> {
  const all = c.req.queries();
  for (const [name, values] of Object.entries(all))
    if (values.length > 1)
      throw new ApiError(
        400,
        ErrorNumber.BAD_REQUEST,
        `${echoable(name) ? name : 'a parameter'}: given ${values.length} times in the query string; give it once`,
      );
  return Object.fromEntries(Object.entries(all).map(([name, [value]]) => [name, value!]));
}

/** Validates input; the first problem becomes a 400 with the error number of its field. */
export function parseInput<T extends z.ZodType>(
  schema: T,
  data: unknown,
  numbers: Record<string, number> = {},
): z.output<T> {
  // reportInput: each issue carries the value that failed, so a field that is absent (undefined:
  // JSON and query strings have no such value) is told from one of the wrong type. The value is
  // only looked at for its kind, never put into the message.
  const result = schema.safeParse(data, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const number = numbers[String(issue.path[0] ?? '')] ?? ErrorNumber.BAD_REQUEST;
  throw new ApiError(400, number, issueMessage(issue));
}

/** What each expected type of an invalid_type issue is called in a message. */
const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'an array',
  tuple: 'an array',
  null: 'null',
  date: 'a date',
};

/** The kind of a value, in the words of a message (the value itself is never shown). */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
    case 'bigint':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

const isJsonObject = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The message of a validation issue: `<path>: <reason>`. An issue of the wrong type names what
 * was expected and what was given, or says the field is required when it is absent; a body
 * (the root, path []) that is not a JSON object says so. Needs the issue's `input`, which zod
 * reports only when parsed with `{ reportInput: true }` (as parseInput does); without it, every
 * invalid_type issue reads as a missing field.
 */
export function issueMessage(issue: z.core.$ZodIssue): string {
  const field = issue.path.map(String).join('.');
  const root = issue.path.length === 0;
  if (
    root &&
    !isJsonObject(issue.input) &&
    issue.input !== undefined &&
    (issue.code === 'invalid_union' ||
      (issue.code === 'invalid_type' && issue.expected === 'object'))
  )
    return 'the body must be a JSON object';
  let reason = issue.message;
  // zod's own words ("Too big: expected string to have <=2048 characters") said plainly; a
  // schema's own message is kept.
  if (
    (issue.code === 'too_big' || issue.code === 'too_small') &&
    /^Too (big|small):/.test(issue.message)
  ) {
    const big = issue.code === 'too_big';
    const bound = Number(big ? issue.maximum : issue.minimum);
    const strict = issue.inclusive === false;
    if (issue.origin === 'string' || issue.origin === 'array') {
      const n = strict ? (big ? bound - 1 : bound + 1) : bound;
      const unit = issue.origin === 'string' ? 'characters' : 'items';
      reason =
        !big && n === 1
          ? 'must not be empty'
          : `must be ${big ? 'at most' : 'at least'} ${n} ${unit}`;
    } else if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint')
      reason = strict
        ? `must be ${big ? 'below' : 'above'} ${bound}`
        : `must be ${big ? 'at most' : 'at least'} ${bound}`;
  }
  if (issue.code === 'invalid_type') {
    const given = issue.input;
    if (given === undefined) reason = 'is required';
    else if (issue.expected === 'int' && typeof given === 'number')
      reason = 'must be a whole number';
    else reason = `expected ${EXPECTED[issue.expected] ?? issue.expected}, not ${kindOf(given)}`;
  }
  return field ? `${field}: ${reason}` : reason;
}

/** A network symbol of the spec's table. */
export const Network = z
  .enum(NETWORK_SYMBOLS as [string, ...string[]], {
    error: (issue) => (issue.input === undefined ? 'is required' : 'unknown network symbol'),
  })
  .meta({
    description: "Network symbol (the spec's table of 23). An unknown symbol gets error 5000.",
  });
