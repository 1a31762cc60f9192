import { parse as parseLossless } from 'lossless-json';

/**
 * JSON.stringify that writes bigint values as exact JSON numbers (JSON numbers have no size
 * limit; a JS number would round 1 ETH in wei). Where the spec says "number" for a chain integer
 * the body carries every digit; a reader that needs them parses with a big-number JSON parser.
 * Otherwise as JSON.stringify without a replacer: own enumerable keys in order, toJSON honoured,
 * undefined and functions left out of objects and null in arrays, non-finite numbers null.
 * Written out by hand because it runs for every webhook body: a replacer function plus a pass
 * over the text to unquote marked bigints cost about seven times as much.
 */
export function stringifyWithBigInts(value: unknown): string {
  return write(value) ?? 'null';
}

function write(value: unknown): string | undefined {
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (value instanceof JsonNumber) return value.text;
      const withToJson = value as { toJSON?: () => unknown };
      if (typeof withToJson.toJSON === 'function') return write(withToJson.toJSON());
      if (Array.isArray(value)) return `[${value.map((item) => write(item) ?? 'null').join(',')}]`;
      let out = '';
      for (const key of Object.keys(value)) {
        const item = write((value as Record<string, unknown>)[key]);
        if (item !== undefined) out += `${out ? ',' : ''}${JSON.stringify(key)}:${item}`;
      }
      return `{${out}}`;
    }
    default:
      return undefined;
  }
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A body's bytes as text, or undefined when they are not UTF-8 (a stray byte, an encoded
 * surrogate). Decoding with replacement characters would store text other than what was sent,
 * and two references differing only in their bad bytes would become the same.
 */
export function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** A UTF-16 surrogate without its other half: what a JSON escape such as "\ud800" makes. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/**
 * Text Postgres can store (text, jsonb) from text others wrote, for what is kept as it came
 * rather than refused (NFT metadata): NUL removed, each half of a surrogate pair that lacks its
 * other half replaced by U+FFFD (jsonb refuses "\ud800").
 */
export function storableText(value: string): string {
  return value.replace(/\u0000/g, '').replace(LONE_SURROGATES, '\uFFFD');
}

/**
 * What is wrong with the strings (and keys) of a parsed body, if anything: `nul`, a U+0000,
 * which Postgres text cannot store (a 500 once, found by test/fuzz.test.ts); `surrogate`, half of
 * a UTF-16 pair, which no UTF-8 text can hold (Postgres refuses it, or it is stored as U+FFFD).
 * In a JSON body either can come only from a `\u` escape, so given its `text`, one without any
 * is not walked; a form body (whose %00 decodes to U+0000) is walked always. Iterative: a body
 * nested thousands of levels deep cannot overflow the stack.
 */
export function badStrings(value: unknown, text?: string): 'nul' | 'surrogate' | undefined {
  if (text !== undefined && !text.includes('\\u')) return undefined;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return 'nul';
      if (LONE_SURROGATE.test(v)) return 'surrogate';
    } else if (v !== null && typeof v === 'object') {
      for (const [key, item] of Object.entries(v)) {
        if (key.includes('\u0000')) return 'nul';
        if (LONE_SURROGATE.test(key)) return 'surrogate';
        stack.push(item);
      }
    }
  }
  return undefined;
}

/**
 * The first key an object of valid JSON `text` gives twice, or undefined. JSON.parse keeps the
 * last: `{"webhook":"https://a","webhook":"http://b"}` is read as b, while a proxy, a log or
 * another parser may read a. One pass over the text, iterative; keys compared as decoded (so
 * `"a\u0062"` is `"ab"`).
 */
export function duplicateKey(text: string): string | undefined {
  const objects: (Set<string> | null)[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x7b) objects.push(new Set());
    else if (ch === 0x5b) objects.push(null);
    else if (ch === 0x7d || ch === 0x5d) objects.pop();
    else if (ch === 0x22) {
      const start = i;
      let escaped = false;
      for (i++; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x5c) {
          escaped = true;
          i++;
        } else if (c === 0x22) break;
      }
      const keys = objects[objects.length - 1];
      if (!keys) continue;
      let next = i + 1;
      // JSON's whitespace: space, tab, LF, CR.
      while (next < text.length && ' \t\n\r'.includes(text[next]!)) next++;
      if (text[next] !== ':') continue;
      const raw = text.slice(start + 1, i);
      const key = escaped ? (JSON.parse(text.slice(start, i + 1)) as string) : raw;
      if (keys.has(key)) return key;
      keys.add(key);
    }
  }
  return undefined;
}

/**
 * A JSON number by its exact text. An amount with 18 decimals is not a JS number (a float keeps
 * about 16 digits), so where the exact value matters the number is read and written as text:
 * stringifyWithBigInts writes it as it is, parseJsonExact reads it so.
 */
export class JsonNumber {
  constructor(readonly text: string) {
    if (!JSON_NUMBER.test(text)) throw new TypeError('not a JSON number');
  }
}

const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * JSON.parse, except that the numbers under the top-level keys `exact` come out as JsonNumber
 * (their text as sent); every other number is a JS number, as JSON.parse gives it. Throws on
 * text that is not JSON (lossless-json also refuses a key given twice with different values).
 */
export function parseJsonExact(text: string, exact: readonly string[]): unknown {
  const value = parseLossless(text, null, (n: string) => new JsonNumber(n));
  const keep = new Set<unknown>();
  if (value !== null && typeof value === 'object' && !Array.isArray(value))
    for (const key of exact) {
      const v = (value as Record<string, unknown>)[key];
      if (v instanceof JsonNumber) keep.add(v);
    }
  // Iterative: a deeply nested body cannot overflow the stack here.
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    const entries = v as Record<string, unknown>;
    for (const key of Object.keys(entries)) {
      const item = entries[key];
      if (item instanceof JsonNumber) {
        if (!keep.has(item)) entries[key] = Number(item.text);
      } else if (item !== null && typeof item === 'object') stack.push(item);
    }
  }
  return value instanceof JsonNumber ? Number(value.text) : value;
}
