import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { API_BASE } from '../src/api/app.js';
import type { Route } from '../src/api/route.js';
import { createApiKey } from '../src/keys/keys.js';
import { createOperator } from '../src/operators/operators.js';
import { parseTravelRuleInput } from '../src/travelrule/ivms101/index.js';
import { inquiryText } from './helpers/trp-peer.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import {
  BAD_INTEGERS,
  BAD_URLS,
  INVALID_JSON,
  ODD_STRINGS,
  RAW_BYTES,
  Rng,
  SQL_STRINGS,
  WRONG_TYPES,
  deepArray,
  deepObject,
  fuzzSeed,
  leak,
  routeTable,
  type RouteTableEntry,
} from './helpers/fuzz.js';
import { travelBody } from './helpers/travelrule.js';

/**
 * Bad input, generated: at least 10,000 malformed requests spread over every route of the
 * appliance's route table (every /v2 route and the view link, the TRP endpoints, the operator API
 * and the dashboard's forms). Every answer must be a 4xx, never a 5xx; JSON routes answer with
 * the error body {code, status, message}; no body shows a stack, a source path or Postgres'
 * words; and the process stays up. Seeded: the seed is printed, FUZZ_SEED=<seed> replays a run.
 *
 * Each generated request carries at least one defect that makes it invalid (a missing or
 * ill-typed field, a value out of range, a body that is not JSON, a wrong key, ...), plus noise
 * (extra fields, duplicate parameters, wrong content types). A request is marked `mayPass` only
 * where the route takes no input at all (so nothing can be broken but the key), or where every
 * field is optional and the defect is not a field's value (a form, `null`, unknown keys: read as
 * no body); those 2xx are counted and printed.
 */

const API_ONLY = { api: true, worker: false, indexer: false, devChain: false } as const;
const TOTAL_REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 11_000);
const CONCURRENCY = 16;
const MAX_BODY_BYTES = 1024 * 1024;
const HEALTH_EVERY = 1000;
const SEED = fuzzSeed();

type RouteClass = 'v2' | 'view' | 'trp' | 'ops' | 'dashboard';

interface Case {
  cls: RouteClass;
  /** The route's template, e.g. "POST /v2/stream/create". */
  route: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer | { chunked: Buffer };
  /** What makes it invalid (for the report of a failure). */
  defect: string;
  mayPass: boolean;
  expectStatus?: number;
}

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let apiKey: string;
let revokedKey: string;
let operatorBasic: string;
let table: { v2: Route[]; all: RouteTableEntry[] };
const dispatcher = new Agent({
  connect: { rejectUnauthorized: false },
  connections: CONCURRENCY * 2,
});

beforeAll(async () => {
  console.info(`fuzz seed ${SEED} (replay with FUZZ_SEED=${SEED})`);
  db = await freshDatabase();
  // The rate limit stays on but so high that it never answers in place of the validation under test.
  app = await startTestAppliance(
    db.url,
    { TOLLGATE_RATE_LIMIT_PER_MINUTE: '1000000', TOLLGATE_RATE_LIMIT_BURST: '1000000' },
    API_ONLY,
  );
  apiKey = (await createApiKey(db.sql, 'fuzz')).apikey;
  const revoked = await createApiKey(db.sql, 'revoked');
  await db.sql`update api_keys set revoked_at = now() where id = ${revoked.id}`;
  revokedKey = revoked.apikey;
  const operator = await createOperator(db.sql, 'fuzz-reviewer', 'reviewer');
  operatorBasic = 'Basic ' + Buffer.from(`fuzz-reviewer:${operator.password}`).toString('base64');
  table = routeTable(db.sql);
});
afterAll(async () => {
  await app?.stop();
  await db?.drop();
  await dispatcher.close();
});

// ---------------------------------------------------------------- values

const EVM = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const HOOK = 'http://127.0.0.1:9/hook';
const HASH = '0x' + 'ab'.repeat(32);

/** A valid value for a field, by name: the baseline the defects are put into. */
function validValue(name: string): string {
  const known: Record<string, string> = {
    address: EVM,
    network: 'eth',
    hash: HASH,
    webhook: HOOK,
    url: HOOK,
    stream_webhook: HOOK,
    aml_webhook: HOOK,
    page: '1',
    limit: '10',
    refresh: 'false',
    transaction_ref: 'fuzz-ref',
    transaction_hash: HASH,
    status: 'PENDING',
    direction: 'outgoing',
    reason: 'fuzz',
    kind: 'stream',
    event_id: '5c1f0e2a-8d4b-4c6e-9a7f-3b2d1e0c9f8a',
    since: '2025-01-01T00:00:00Z',
    overlap_hours: '24',
  };
  return known[name] ?? 'x';
}

const HUGE = (rng: Rng) => 'A'.repeat(rng.pick([5_000, 70_000, 300_000, 900_000]));

function oddString(rng: Rng): string {
  return rng.chance(0.25) ? rng.pick(SQL_STRINGS) : rng.pick(ODD_STRINGS);
}

/** A value the named field must refuse (query string form), or undefined when none is sure to be refused. */
function badQueryValue(rng: Rng, name: string, route: string): string | undefined {
  if (name === 'page' || name === 'limit') return rng.pick(BAD_INTEGERS);
  if (/webhook|url/.test(name))
    return rng.chance(0.7)
      ? rng.pick(BAD_URLS)
      : rng.chance(0.5)
        ? oddString(rng)
        : 'http://' + '1'.repeat(3000);
  if (name === 'address')
    return rng.pick([
      oddString(rng),
      '0x' + rng.hex(39),
      '0x' + 'g'.repeat(40),
      '0xD8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
      'a'.repeat(257),
      'bc1' + rng.hex(20),
    ]);
  if (name === 'network')
    return rng.pick([oddString(rng), 'ETH', 'eth ', 'ethereum', 'hasOwnProperty', '__proto__']);
  if (name === 'hash')
    return rng.pick([oddString(rng), '0x' + rng.hex(63), '0x' + 'zz'.repeat(32), 'f'.repeat(101)]);
  if (name === 'refresh')
    return rng.pick([oddString(rng).replace(/^(true|false)$/, 'yes'), 'TRUE', '1', 'yes']);
  if (name === 'status' || name === 'direction')
    return rng.pick([oddString(rng), 'pending', 'APPROVED ', 'in']);
  if (name === 'kind')
    return rng.pick([oddString(rng), 'liveaml', 'STREAM', 'stream ', 'all', 'webhook']);
  if (name === 'event_id')
    return rng.pick([
      oddString(rng),
      'msg_',
      'msg_msg_5c1f0e2a-8d4b-4c6e-9a7f-3b2d1e0c9f8a',
      '5c1f0e2a8d4b4c6e9a7f3b2d1e0c9f8a',
      '5c1f0e2a-8d4b-4c6e-9a7f-3b2d1e0c9f8',
      "5c1f0e2a-8d4b-4c6e-9a7f-3b2d1e0c9f8a' or '1'='1",
    ]);
  if (name === 'since')
    return rng.pick([
      oddString(rng),
      '2025-01-01',
      '2025-01-01T00:00:00',
      '2025-13-01T00:00:00Z',
      'yesterday',
      '1700000000',
      'now()',
    ]);
  if (name === 'overlap_hours')
    return rng.pick([oddString(rng), '-1', '169', '1e3', '0x10', '24h', 'Infinity']);
  if (name === 'transaction_ref' && !/create_tx|receive_tx/.test(route)) return oddString(rng);
  return undefined;
}

/** A value of the JSON body the named field must refuse. */
function badBodyValue(rng: Rng, name: string, route: string): unknown {
  // Hours: 0 and fractions are good values here, so the wrong types are others.
  if (name === 'overlap_hours')
    return rng.pick([-1, 169, 1e308, '-1', '169', '1e3', '', true, null, [], {}, '24h']);
  // A block number: 0 and digit strings are good values here, and null is "not given", so the
  // wrong types are others.
  if (name === 'from_block')
    return rng.pick([-1, 1.5, 1e308, '-1', '1.5', '12a', '', '0x10', true, [], {}, '9'.repeat(17)]);
  const r = rng.next();
  if (r < 0.45) return rng.pick(WRONG_TYPES);
  if (r < 0.55) return { nested: JSON.parse(deepArray(rng.pick([50, 500]))) };
  if (r < 0.65 && !/transaction_ref/.test(name)) return HUGE(rng);
  const bad = badQueryValue(rng, name, route);
  return bad ?? rng.pick(WRONG_TYPES);
}

// ---------------------------------------------------------------- encoding

/** encodeURIComponent, but a lone surrogate goes as its replacement character (as a browser sends it) instead of throwing. */
function percentEncode(value: string): string {
  return [...Buffer.from(value, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : '%' + b.toString(16).padStart(2, '0').toUpperCase(),
    )
    .join('');
}

function encodeQuery(rng: Rng, pairs: [string, string][]): string {
  if (pairs.length === 0) return '';
  const parts = pairs.map(([k, v]) => {
    // Now and then raw (invalid) UTF-8 bytes or a broken escape instead of a clean encoding.
    if (rng.chance(0.05))
      return `${k}=${rng
        .pick(RAW_BYTES)
        .map((b) => '%' + b.toString(16).padStart(2, '0').toUpperCase())
        .join('')}`;
    if (rng.chance(0.02)) return `${k}=%E0%A4%A${rng.pick(['', 'Z', '%'])}`;
    return `${percentEncode(k)}=${percentEncode(v)}`;
  });
  return '?' + parts.join('&');
}

/** A JSON text with raw invalid UTF-8 bytes inside a string (the body is bytes, not text). */
function withRawBytes(rng: Rng, value: Record<string, unknown>, field: string): Buffer {
  const marker = '\u0001MARK\u0001';
  const text = JSON.stringify({ ...value, [field]: marker });
  const [before, after] = text.split(JSON.stringify(marker));
  return Buffer.concat([
    Buffer.from(before + '"'),
    Buffer.from(rng.pick(RAW_BYTES)),
    Buffer.from('"' + after),
  ]);
}

function oversize(rng: Rng): Case['body'] {
  const size = MAX_BODY_BYTES + 1 + rng.int(4096);
  const bytes = Buffer.alloc(size, 0x20);
  bytes.write('{"a":"');
  bytes.write('"}', size - 2);
  return rng.chance(0.5) ? bytes : { chunked: bytes };
}

/** Noise that does not repair a defect: extra fields of odd names, wrong content types, odd headers. */
function noiseHeaders(rng: Rng, headers: Record<string, string>) {
  if (rng.chance(0.15))
    headers['content-type'] = rng.pick([
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=utf-16',
      'application/xml',
      '*/*',
      'application/json; charset=iso-8859-1',
    ]);
  if (rng.chance(0.05)) headers.accept = rng.pick(['text/html', 'application/xml', '*/*;q=0']);
  if (rng.chance(0.05))
    headers['x-request-id'] = rng.pick(['../../x', 'a'.repeat(300), '%00', "' or 1=1"]);
}

function extraFields(rng: Rng): Record<string, unknown> {
  const extras: Record<string, unknown> = {};
  for (let i = rng.int(3); i > 0; i--)
    extras[
      rng.pick([
        '__proto__',
        'constructor',
        'prototype',
        'extra',
        'toString',
        '$where',
        'a'.repeat(1000),
        oddString(rng),
      ])
    ] = rng.pick<unknown>([{ polluted: true }, ...WRONG_TYPES, oddString(rng)]);
  return extras;
}

// ---------------------------------------------------------------- API key places

type KeyPlace = 'query' | 'header' | 'basic' | 'body';

/** Puts a key in one of its four places; returns false when the body cannot carry it. */
function placeKey(
  place: KeyPlace,
  key: string,
  query: [string, string][],
  headers: Record<string, string>,
  body: Record<string, unknown> | undefined,
): boolean {
  if (place === 'query') query.unshift(['apikey', key]);
  else if (place === 'header') headers.apikey = key;
  else if (place === 'basic')
    headers.authorization = 'Basic ' + Buffer.from(`${key}:`).toString('base64');
  else if (body) body.apikey = key;
  else return false;
  return true;
}

/** A wrong credential in one of the places, or none at all. */
function badKey(rng: Rng, query: [string, string][], headers: Record<string, string>): string {
  const kind = rng.int(8);
  if (kind === 0) return 'no key';
  if (kind === 1) headers.apikey = 'tg_' + rng.hex(40);
  if (kind === 2) query.unshift(['apikey', rng.chance(0.5) ? oddString(rng) || 'x' : revokedKey]);
  if (kind === 3)
    headers.authorization = rng.pick([
      'Basic !!!not-base64',
      'Basic ' + Buffer.from(':').toString('base64'),
      `Bearer ${apiKey}`,
      'Basic',
      'Digest x',
    ]);
  if (kind === 4) headers.apikey = 'k'.repeat(rng.pick([201, 5000]));
  if (kind === 5) headers.apikey = revokedKey;
  if (kind === 6) query.unshift(['apikey', apiKey.slice(0, -1)]);
  if (kind === 7)
    headers.authorization = 'Basic ' + Buffer.from(`${apiKey.toUpperCase()}:`).toString('base64');
  return `bad key ${kind}`;
}

// ---------------------------------------------------------------- /v2 routes

interface Field {
  name: string;
  required: boolean;
}

function fieldsOf(schema: z.ZodType | undefined): Field[] {
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, f]) => ({
    name,
    required: !f.safeParse(undefined).success,
  }));
}

const TRAVEL_BODY = (route: string): Record<string, unknown> =>
  route.includes('receive_tx')
    ? travelBody('fuzz-ref', { transaction_hash: HASH, created_at: '2024-01-01T00:00:00Z' })
    : travelBody('fuzz-ref');

/** Paths to the string leaves of a value. */
function leaves(
  value: unknown,
  path: (string | number)[] = [],
  out: (string | number)[][] = [],
): (string | number)[][] {
  if (typeof value === 'string') out.push(path);
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) leaves(v, [...path, i], out);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) leaves(v, [...path, k], out);
  return out;
}

function setAt(root: any, path: (string | number)[], value: unknown) {
  let node = root;
  for (const p of path.slice(0, -1)) node = node[p];
  if (value === undefined) delete node[path.at(-1)!];
  else node[path.at(-1)!] = value;
}

/**
 * IVMS101 values of the right type that its rules refuse. (Not here, because they are accepted on
 * purpose: codes in lower case, "gb" for GB, an empty optional countryOfIssue or
 * transaction_network, null for an optional field.)
 */
const BAD_IVMS: Record<string, string[]> = {
  dateOfBirth: ['1961-02-30', '2999-01-01', '1961/04/23', '0000-00-00', '1800-01-01'],
  countryOfIssue: ['ZZ', 'GBR', 'G'],
  country: ['ZZ', 'gbr', ''],
  nameIdentifierType: ['ZZZZ', 'LEG', ''],
  nationalIdentifierType: ['PASSPORT', ''],
  addressType: ['CASTLE', ''],
  transaction_amount: [
    '-1',
    'abc',
    '1.2.3',
    '0x10',
    '',
    ' 1',
    '1e400',
    'Infinity',
    '1'.repeat(200),
  ],
  transaction_asset_decimals: ['-1', '1.5', '99', 'eighteen', ''],
  transaction_asset: ['', 'E'.repeat(100)],
  transaction_network: ['nope', 'ETH '],
};

function v2Case(rng: Rng, route: Route): Case {
  const method = route.spec.method.toUpperCase();
  const label = `${method} ${API_BASE}${route.spec.path}`;
  const queryFields = fieldsOf(route.spec.query);
  const bodyFields = fieldsOf(route.spec.body);
  const travel = Boolean(route.spec.parseBody);
  const query: [string, string][] = [];
  for (const f of queryFields)
    if (f.required || rng.chance(0.5)) query.push([f.name, validValue(f.name)]);
  let body: Record<string, unknown> | undefined;
  if (route.spec.body) {
    body = travel ? TRAVEL_BODY(label) : {};
    if (!travel)
      for (const f of bodyFields)
        if (f.required || rng.chance(0.5)) body[f.name] = validValue(f.name);
  }
  const headers: Record<string, string> = {};
  let raw: Case['body'];
  let defect: string | undefined;
  let expectStatus: number | undefined;

  // The defect.
  const options: (() => string | undefined)[] = [];
  const requiredQuery = queryFields.filter((f) => f.required);
  if (requiredQuery.length)
    options.push(() => {
      const f = rng.pick(requiredQuery);
      for (let i = query.length - 1; i >= 0; i--) if (query[i]![0] === f.name) query.splice(i, 1);
      return `query ${f.name} missing`;
    });
  for (const f of queryFields) {
    if (badQueryValue(rng, f.name, label) === undefined) continue;
    options.push(() => {
      const bad = badQueryValue(rng, f.name, label)!;
      const at = query.findIndex(([k]) => k === f.name);
      if (at >= 0) query.splice(at, 1);
      query.push([f.name, bad]);
      if (rng.chance(0.2)) query.push([f.name, badQueryValue(rng, f.name, label)!]); // duplicate, both bad
      return `query ${f.name}=${JSON.stringify(bad.slice(0, 40))}`;
    });
  }
  if (body) {
    options.push(
      () => {
        raw = rng.pick(INVALID_JSON);
        return 'invalid JSON';
      },
      () => {
        const text = JSON.stringify(body);
        raw = text.slice(0, 1 + rng.int(text.length - 1));
        return 'truncated JSON';
      },
      () => {
        raw = rng.pick(['null', '1', '"s"', 'true', '[]', '[{}]', '1e309', '-0', '""']);
        return `non-object body ${raw}`;
      },
      () => {
        const depth = rng.pick([1_000, 10_000, 100_000]);
        raw = rng.chance(0.5) ? deepArray(depth) : deepObject(depth);
        return `nested ${depth} levels`;
      },
      () => {
        const text = JSON.stringify(body);
        raw = rng.chance(0.5)
          ? '\ufeff' + text.slice(0, -1)
          : Buffer.from(text.slice(0, -1), 'utf16le');
        return 'BOM or UTF-16 and cut';
      },
    );
  }
  if (body && !travel) {
    for (const f of bodyFields) {
      if (f.required)
        options.push(() => {
          delete body![f.name];
          return `body ${f.name} missing`;
        });
      options.push(() => {
        const bad = badBodyValue(rng, f.name, label);
        body![f.name] = bad;
        if (typeof bad === 'string' && rng.chance(0.3)) raw = withRawBytes(rng, body!, f.name);
        return `body ${f.name} bad`;
      });
    }
  }
  if (body && travel) {
    options.push(
      () => {
        const paths = leaves(body);
        if (paths.length === 0) return undefined;
        const path = rng.pick(paths);
        setAt(body, path, rng.pick(WRONG_TYPES.filter((v) => v !== null)));
        return `leaf ${path.join('.')} wrong type`;
      },
      () => {
        const field = rng.pick([
          'transaction_ref',
          'transaction_asset',
          'transaction_amount',
          'originator',
          'beneficiary',
        ]);
        delete body![field];
        return `${field} missing`;
      },
      () => {
        const paths = leaves(body).filter((p) => BAD_IVMS[String(p.at(-1))]);
        if (paths.length === 0) return undefined;
        const path = rng.pick(paths);
        setAt(body, path, rng.pick(BAD_IVMS[String(path.at(-1))]!));
        return `leaf ${path.join('.')} refused value`;
      },
      () => {
        const paths = leaves(body);
        if (paths.length === 0) return undefined;
        const path = rng.pick(paths);
        setAt(body, path, HUGE(rng));
        return `leaf ${path.join('.')} huge`;
      },
      () => {
        const side = rng.pick(['originator', 'beneficiary']) as 'originator';
        if (!body![side] || typeof body![side] !== 'object') body![side] = {};
        const party = body![side] as Record<string, unknown>;
        const which = rng.pick(['persons', 'accountNumber']);
        party[which] = rng.pick<unknown>([
          {},
          'x',
          [],
          [null],
          JSON.parse(deepArray(200)),
          [oddString(rng)],
          [{ naturalPerson: [] }],
        ]);
        return `${side}.${which} malformed`;
      },
      () => {
        if (!body!.originator || typeof body!.originator !== 'object') body!.originator = {};
        (body!.originator as { accountNumber: unknown[] }).accountNumber = [
          rng.pick([
            oddString(rng),
            '0x' + rng.hex(39),
            'bc1qinvalid',
            EVM.toLowerCase().replace('0x', '0X'),
          ]),
        ];
        return 'originator.accountNumber invalid';
      },
    );
  }

  const place = rng.pick<KeyPlace>(['query', 'header', 'basic', 'body']);
  if (body && rng.chance(0.015)) {
    raw = oversize(rng);
    defect = `body over the limit${(raw as { chunked?: Buffer }).chunked ? ' (chunked)' : ''}`;
    expectStatus = 413;
  } else if (rng.chance(0.12)) {
    defect = badKey(rng, query, headers);
  } else if (options.length) {
    // A defect that finds nothing to break (a leaf gone with a field removed first) tries another.
    for (let tries = 0; defect === undefined && tries < 10; tries++) defect = rng.pick(options)();
    if (rng.chance(0.3) && options.length > 1) {
      const more = rng.pick(options)();
      if (more) defect = `${defect ?? ''}; ${more}`;
    }
  }
  if (defect === undefined || (!defect.startsWith('bad key') && !defect.startsWith('no key'))) {
    if (!placeKey(place, apiKey, query, headers, raw === undefined ? body : undefined))
      headers.apikey = apiKey;
  }

  // Noise.
  if (rng.chance(0.3))
    query.push([
      rng.pick(['extra', 'page', 'limit', 'apikey2', '__proto__', 'a[]', oddString(rng) || 'e']),
      rng.chance(0.5) ? oddString(rng) : rng.pick(SQL_STRINGS),
    ]);
  if (body && raw === undefined && rng.chance(0.3)) Object.assign(body, extraFields(rng));
  noiseHeaders(rng, headers);

  if (body && raw === undefined) {
    const text = JSON.stringify(body);
    raw = text;
    // __proto__ set by assignment is the prototype, not a key: write it as a key, as an attacker would.
    if (rng.chance(0.1))
      raw = text.replace(/^\{/, '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}},');
  }
  if (raw !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
  // A body whose every field is optional (POST /v2/webhook/rotate_secret): one that carries no
  // field of its own (sent as a form, `null`, an object of unknown keys however deep) is read as
  // no body, a valid request; there only a field's own value is sure to be a defect.
  const bodyOptional =
    Boolean(body) && !travel && bodyFields.every((f) => !f.required) && requiredQuery.length === 0;
  const asForm = /^application\/x-www-form-urlencoded/i.test(headers['content-type'] ?? '');
  const fieldDefectsOnly = (defect ?? '').split('; ').every((d) => /^body \S+ bad$/.test(d));
  const readsAsNoBody =
    bodyOptional &&
    !defect?.startsWith('bad key') &&
    !defect?.startsWith('no key') &&
    (asForm || !fieldDefectsOnly);
  return {
    cls: 'v2',
    route: label,
    method,
    path: `${API_BASE}${route.spec.path}${encodeQuery(rng, query)}`,
    headers,
    body: raw,
    defect: defect ?? 'none (the route takes no input)',
    mayPass: defect === undefined || readsAsNoBody,
    expectStatus,
  };
}

/** A /v2 route of the table that allRoutes does not list (openapi.json): nothing to break but the key. */
function plainV2Case(rng: Rng, entry: RouteTableEntry): Case {
  const query: [string, string][] = [];
  const headers: Record<string, string> = {};
  const defect = rng.chance(0.5) ? badKey(rng, query, headers) : undefined;
  if (!defect)
    placeKey(rng.pick<KeyPlace>(['query', 'header', 'basic']), apiKey, query, headers, undefined);
  if (rng.chance(0.5))
    query.push(['page', rng.pick(BAD_INTEGERS)], [oddString(rng) || 'x', oddString(rng)]);
  noiseHeaders(rng, headers);
  return {
    cls: 'v2',
    route: `${entry.method} ${entry.path}`,
    method: entry.method,
    path: entry.path + encodeQuery(rng, query),
    headers,
    defect: defect ?? 'none (the route takes no input)',
    mayPass: !defect,
  };
}

// ---------------------------------------------------------------- other route classes

function segment(rng: Rng, valid: () => string): string {
  if (rng.chance(0.6)) return valid();
  return percentEncode(
    rng.pick([
      oddString(rng) || '-',
      'a'.repeat(rng.pick([10, 300, 4000])),
      '..',
      '%',
      '0'.repeat(36),
      "1' or '1'='1",
    ]),
  );
}

function viewCase(rng: Rng, entry: RouteTableEntry): Case {
  const id = segment(rng, () => randomUUIDFrom(rng));
  const q = rng.pick([
    undefined,
    '',
    `${Math.floor(Date.now() / 1000) + 3600}.${rng.hex(64)}`,
    `${'9'.repeat(30)}.${rng.hex(64)}`,
    '-1.x',
    oddString(rng),
    'a'.repeat(5000),
    '1e309.AAAA',
  ]);
  const headers: Record<string, string> = {};
  if (rng.chance(0.3)) headers.apikey = apiKey;
  const query: [string, string][] = q === undefined ? [] : [['q', q]];
  if (rng.chance(0.2)) query.push(['q', oddString(rng)]);
  return {
    cls: 'view',
    route: `${entry.method} ${entry.path}`,
    method: 'GET',
    path: entry.path.replace(':id', id) + encodeQuery(rng, query),
    headers,
    defect: 'no valid view token',
    mayPass: false,
  };
}

function randomUUIDFrom(rng: Rng): string {
  const h = rng.hex(32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20)}`;
}

let inquiryBaseline: Record<string, unknown> | undefined;
function inquiry(): Record<string, unknown> {
  if (!inquiryBaseline) {
    const parsed = parseTravelRuleInput(travelBody('trp'), 'create_tx');
    if (!parsed.ok) throw new Error(parsed.message);
    const tx = parsed.value;
    inquiryBaseline = JSON.parse(
      inquiryText({
        asset: { slip0044: 60 },
        amount: tx.transaction_amount,
        callback: 'https://vasp-a.example/trp/v3/resolutions/tok_callback_000000',
        originatorPersons: tx.originator.persons,
        originatorAccounts: tx.originator.accountNumber,
        beneficiaryPersons: tx.beneficiary.persons,
        beneficiaryAccounts: tx.beneficiary.accountNumber,
        originatorVasp: 'Fuzz VASP',
      }),
    ) as Record<string, unknown>;
  }
  return structuredClone(inquiryBaseline);
}

function trpCase(rng: Rng, entry: RouteTableEntry): Case {
  const token = segment(rng, () => Buffer.from(rng.hex(64), 'hex').toString('base64url'));
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (rng.chance(0.85))
    headers['api-version'] = rng.chance(0.8)
      ? '3.1.0'
      : rng.pick(['2.0', '3.x', '', '33', '3.1.0.0', ' ']);
  if (rng.chance(0.85))
    headers['request-identifier'] = rng.chance(0.8)
      ? randomUUIDFrom(rng)
      : rng.pick(['x', '00000000-0000-0000-0000-00000000000g', '', "' or 1=1"]);
  if (rng.chance(0.1))
    headers['api-extensions'] = Array.from(
      { length: 100 },
      () => oddString(rng).replace(/[^\x20-\x7e]/g, '') || 'e',
    ).join(',');
  const kind = entry.path.split('/')[3];
  const base: Record<string, unknown> =
    kind === 'inquiries'
      ? inquiry()
      : kind === 'resolutions'
        ? {
            approved: {
              address: EVM,
              callback: 'https://vasp-b.example/trp/v3/confirmations/tok_x',
            },
          }
        : { txid: HASH };
  let body: Case['body'];
  let expectStatus: number | undefined;
  const r = rng.next();
  if (r < 0.02) {
    body = oversize(rng);
    expectStatus = 413;
  } else if (r < 0.2) body = rng.pick(INVALID_JSON);
  else if (r < 0.3)
    body = rng.chance(0.5) ? deepArray(rng.pick([10_000, 100_000])) : deepObject(10_000);
  else {
    const paths = leaves(base);
    for (let i = 1 + rng.int(3); i > 0 && paths.length; i--)
      setAt(
        base,
        rng.pick(paths),
        rng.chance(0.5)
          ? rng.pick<unknown>(WRONG_TYPES)
          : rng.chance(0.5)
            ? oddString(rng)
            : HUGE(rng),
      );
    body = JSON.stringify({ ...base, ...extraFields(rng) });
  }
  // Whatever the message, the token is unknown: never a 2xx.
  return {
    cls: 'trp',
    route: `${entry.method} ${entry.path}`,
    method: 'POST',
    path: entry.path.replace(':token', token),
    headers,
    body,
    defect: 'unknown token and fuzzed message',
    mayPass: false,
    expectStatus,
  };
}

/** Operator credentials cost a scrypt hash each: sent on a fraction only (and never wrong for a real login: no lockout). */
const isEmptyObject = (v: unknown) =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;

function opsCase(rng: Rng, entry: RouteTableEntry): Case {
  const headers: Record<string, string> = {};
  const credentialed = rng.chance(0.3);
  if (credentialed) headers.authorization = operatorBasic;
  else if (rng.chance(0.3))
    headers.authorization = rng.pick([
      'Basic !!',
      'Basic ' + Buffer.from('nobody:pw').toString('base64'),
      'Basic ' + 'A'.repeat(2000),
      `Bearer ${apiKey}`,
    ]);
  if (rng.chance(0.2)) headers.apikey = apiKey;
  const path = entry.path.replace(
    ':id',
    segment(rng, () => randomUUIDFrom(rng)),
  );
  const query: [string, string][] = [];
  if (entry.method === 'GET') {
    // /pending sets status itself: a bad one there would not be a defect.
    const bad = rng.pick(
      entry.path.endsWith('/pending')
        ? ['page', 'limit', 'direction']
        : ['page', 'limit', 'status', 'direction'],
    );
    query.push([bad, badQueryValue(rng, bad, entry.path)!]);
    if (rng.chance(0.3)) query.push(['page', '1'], ['page', '0']);
  }
  let body: Case['body'];
  let expectStatus: number | undefined;
  if (entry.method === 'POST') {
    const r = rng.next();
    if (r < 0.03) {
      body = oversize(rng);
      expectStatus = 413;
    } else if (r < 0.25)
      // A byte order mark may be ignored (RFC 8259 section 8.1): before {} it is a valid session body.
      body = rng.pick(
        INVALID_JSON.filter((b) => !(entry.path === '/ops/session' && b === '\ufeff{}')),
      );
    else if (r < 0.35) body = deepArray(10_000);
    else
      body = JSON.stringify(
        rng.pick<unknown>(
          [
            { reason: rng.pick(WRONG_TYPES) },
            { reason: HUGE(rng) },
            { approved: 'yes' },
            { approved: true, address: [] },
            { rejected: '' },
            { email: 1 },
            { reason: 'x', extra: 1 },
            { approved: true, rejected: 'x' },
            ...WRONG_TYPES,
            // {} is what POST /ops/session takes (its credentials are in the headers).
          ].filter((v) => !(entry.path === '/ops/session' && isEmptyObject(v))),
        ),
      );
    headers['content-type'] = 'application/json';
  }
  // Unknown id, or refused query/body, or no credentials: never a 2xx.
  return {
    cls: 'ops',
    route: `${entry.method} ${entry.path}`,
    method: entry.method,
    path: path + encodeQuery(rng, query),
    headers,
    body,
    defect: credentialed ? 'bad input' : 'no operator credentials',
    mayPass: false,
    expectStatus,
  };
}

function dashboardCase(rng: Rng, entry: RouteTableEntry): Case {
  const headers: Record<string, string> = {
    'content-type': rng.pick([
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=zz',
      'application/json',
      'text/plain',
    ]),
  };
  if (rng.chance(0.3))
    headers.origin = rng.pick([
      'https://evil.example',
      'null',
      'not a url',
      `https://127.0.0.1:${app.apiPort}`,
    ]);
  if (rng.chance(0.3))
    headers.cookie = rng.pick([
      `tollgate_session=${oddString(rng).replace(/[^\x21-\x7e]/g, '')}`,
      'tollgate_session=' + 'a'.repeat(4000),
      '=;;=',
      'tollgate_login_csrf=x',
    ]);
  const path = entry.path.replace(/:(\w+)/g, () => segment(rng, () => randomUUIDFrom(rng)));
  let body: Case['body'];
  let expectStatus: number | undefined;
  const r = rng.next();
  if (r < 0.02) {
    body = oversize(rng);
    expectStatus = 413;
  } else if (r < 0.3)
    body =
      '--zz\r\nContent-Disposition: form-data; name="login"\r\n\r\n' +
      oddString(rng) +
      (rng.chance(0.5) ? '\r\n--zz--' : '');
  else
    body =
      new URLSearchParams(
        Object.fromEntries([
          ['login', oddString(rng)],
          ['password', HUGE(rng).slice(0, 2000)],
          ['_csrf', oddString(rng)],
          [oddString(rng) || 'x', "' or 1=1"],
        ]),
      ).toString() + rng.pick(['', '&%zz', '&a=%E0%A4%A', '&&==&']);
  return {
    cls: 'dashboard',
    route: `${entry.method} ${entry.path}`,
    method: 'POST',
    path,
    headers,
    body,
    defect: 'no session, fuzzed form',
    mayPass: false,
    expectStatus,
  };
}

// ---------------------------------------------------------------- running and checking

interface Reply {
  status: number;
  contentType: string;
  text: string;
}

async function send(c: Case): Promise<Reply> {
  let body: string | Buffer | Readable | undefined;
  if (c.body && typeof c.body === 'object' && 'chunked' in c.body) {
    // A stream of unknown length: sent chunked, without Content-Length.
    const bytes = c.body.chunked;
    body = Readable.from(
      (function* chunks() {
        for (let i = 0; i < bytes.length; i += 64 * 1024) yield bytes.subarray(i, i + 64 * 1024);
      })(),
    );
  } else body = c.body as string | Buffer | undefined;
  const res = await request(`${app.baseUrl}${c.path}`, {
    method: c.method as 'GET',
    headers: c.headers,
    body,
    dispatcher,
    headersTimeout: 60_000,
    bodyTimeout: 60_000,
  });
  const text = await res.body.text();
  return { status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), text };
}

/** What is wrong with an answer, or undefined. */
function verdict(c: Case, r: Reply): string | undefined {
  if (r.status >= 500) return `status ${r.status}`;
  const leaked = leak(r.text);
  if (leaked) return `body leaks internals (${JSON.stringify(leaked)})`;
  if (c.cls === 'dashboard')
    return c.expectStatus && r.status !== c.expectStatus
      ? `status ${r.status}, expected ${c.expectStatus}`
      : undefined;
  if (r.status < 300 && c.mayPass) return undefined;
  if (r.status < 400) return `status ${r.status} for a malformed request`;
  if (c.expectStatus && r.status !== c.expectStatus)
    return `status ${r.status}, expected ${c.expectStatus}`;
  if (c.cls === 'view' && r.contentType.startsWith('text/html'))
    return r.status === 403 ? undefined : `view link answered ${r.status}`;
  let json: any;
  try {
    json = JSON.parse(r.text);
  } catch {
    return `error body is not JSON (${r.contentType}): ${JSON.stringify(r.text.slice(0, 80))}`;
  }
  if (
    !json ||
    typeof json.code !== 'number' ||
    json.code !== json.status ||
    typeof json.message !== 'string'
  )
    return `error body shape: ${r.text.slice(0, 120)}`;
  if (r.status === 413 && json.code !== 4130) return `413 with code ${json.code}`;
  return undefined;
}

interface Tally {
  sent: number;
  byStatus: Map<number, number>;
  passed: number;
}

describe('fuzzed bad input', () => {
  it(`answers ${TOTAL_REQUESTS} malformed requests with 4xx JSON errors and stays up`, async () => {
    const rng = new Rng(SEED);
    const v2Extra = table.all.filter(
      (e) =>
        e.path.startsWith(`${API_BASE}/`) &&
        !e.path.includes(':') &&
        !table.v2.some(
          (r) =>
            `${r.spec.method.toUpperCase()} ${API_BASE}${r.spec.path}` === `${e.method} ${e.path}`,
        ),
    );
    const view = table.all.filter((e) => e.path === `${API_BASE}/travelrule/transaction/:id`);
    const trp = table.all.filter((e) => e.path.startsWith('/trp/'));
    const ops = table.all.filter((e) => e.path.startsWith('/ops/'));
    const dashboard = table.all.filter(
      (e) => e.path.startsWith('/dashboard') && e.method === 'POST',
    );
    expect(table.v2.length).toBeGreaterThan(10);
    expect(view).toHaveLength(1);
    expect(trp).toHaveLength(3);
    expect(ops.length).toBeGreaterThan(0);
    expect(dashboard.length).toBeGreaterThan(0);

    // Share of requests per class; /v2 takes the rest, spread evenly over its routes.
    const generate = (): Case => {
      const r = rng.next();
      if (r < 0.04) return viewCase(rng, view[0]!);
      if (r < 0.1) return trpCase(rng, rng.pick(trp));
      if (r < 0.13) return opsCase(rng, rng.pick(ops));
      if (r < 0.16) return dashboardCase(rng, rng.pick(dashboard));
      const i = rng.int(table.v2.length + v2Extra.length);
      return i < table.v2.length
        ? v2Case(rng, table.v2[i]!)
        : plainV2Case(rng, v2Extra[i - table.v2.length]!);
    };

    const tallies = new Map<string, Tally & { cls: RouteClass }>();
    const failures: string[] = [];
    const slowest: { ms: number; what: string }[] = [];
    const passedKinds = new Map<string, number>();
    let next = 0;
    let done = 0;
    const started = performance.now();

    const health = async () => {
      const res = await request(`${app.baseUrl}/healthz`, { dispatcher });
      await res.body.text();
      expect(res.statusCode).toBe(200);
    };

    const worker = async () => {
      while (next < TOTAL_REQUESTS) {
        const n = next++;
        const c = generate();
        let problem: string | undefined;
        let reply: Reply | undefined;
        const t0 = performance.now();
        try {
          reply = await send(c);
          problem = verdict(c, reply);
        } catch (err) {
          problem = `request failed: ${(err as Error).message}`;
        }
        slowest.push({
          ms: performance.now() - t0,
          what: `${c.method} ${c.path.slice(0, 100)} [${c.defect}] ${c.body ? (Buffer.isBuffer(c.body) || typeof c.body === 'string' ? c.body.length : c.body.chunked.length) : 0} B → ${reply?.status}`,
        });
        if (slowest.length > 50) slowest.sort((a, b) => b.ms - a.ms).splice(20);
        const t = tallies.get(c.route) ?? { cls: c.cls, sent: 0, byStatus: new Map(), passed: 0 };
        t.sent++;
        if (reply) t.byStatus.set(reply.status, (t.byStatus.get(reply.status) ?? 0) + 1);
        if (reply && reply.status < 300 && c.cls !== 'dashboard') {
          t.passed++;
          passedKinds.set(
            `${c.route}: ${c.defect}`,
            (passedKinds.get(`${c.route}: ${c.defect}`) ?? 0) + 1,
          );
        }
        tallies.set(c.route, t);
        if (problem && failures.length < 30)
          failures.push(
            `#${n} ${c.method} ${c.path.slice(0, 160)} [${c.defect}] → ${problem}${reply ? ` :: ${reply.text.slice(0, 200)}` : ''}`,
          );
        if (++done % HEALTH_EVERY === 0) await health();
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    await health();
    const seconds = (performance.now() - started) / 1000;

    // The report: requests per class and route, statuses, and every 2xx with its reason.
    const byClass = new Map<string, number>();
    for (const t of tallies.values()) byClass.set(t.cls, (byClass.get(t.cls) ?? 0) + t.sent);
    const lines = [...tallies.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(
        ([route, t]) =>
          `  ${route.padEnd(52)} ${String(t.sent).padStart(5)}  ${[...t.byStatus.entries()]
            .sort()
            .map(([s, k]) => `${s}×${k}`)
            .join(' ')}`,
      );
    console.info(
      [
        `fuzz seed ${SEED}: ${done} requests in ${seconds.toFixed(1)} s (${Math.round(done / seconds)} req/s), ${failures.length} failures`,
        `per class: ${[...byClass.entries()].map(([k, v]) => `${k} ${v}`).join(', ')}`,
        ...lines,
        'slowest requests:',
        ...slowest
          .sort((a, b) => b.ms - a.ms)
          .slice(0, 8)
          .map((x) => `  ${Math.round(x.ms)} ms ${x.what}`),
        `2xx answers (inputs that are valid by design):`,
        ...[...passedKinds.entries()].map(([k, v]) => `  ${v} × ${k}`),
      ].join('\n'),
    );

    expect(failures, `seed ${SEED} (replay with FUZZ_SEED=${SEED})`).toEqual([]);
    expect(done).toBeGreaterThanOrEqual(10_000);
    for (const route of [
      ...table.v2.map((r) => `${r.spec.method.toUpperCase()} ${API_BASE}${r.spec.path}`),
      ...[...view, ...trp, ...ops, ...dashboard, ...v2Extra].map((e) => `${e.method} ${e.path}`),
    ]) {
      expect(tallies.get(route)?.sent ?? 0, route).toBeGreaterThan(0);
    }
  }, 180_000);

  it('refuses a NUL character in a JSON string with 400 (Postgres text cannot hold it; it was a 500)', async () => {
    const cases: [string, Record<string, string>, object][] = [
      [
        `${API_BASE}/travelrule/send_tx_hash`,
        { apikey: apiKey },
        { transaction_ref: 'a\u0000b', transaction_hash: HASH },
      ],
      [
        `${API_BASE}/travelrule/send_address`,
        { apikey: apiKey },
        { transaction_ref: 'ref', address: EVM, 'k\u0000': 1 },
      ],
      [
        '/ops/travelrule/transactions/00000000-0000-4000-8000-000000000000/reject',
        { authorization: operatorBasic },
        { reason: '\u0000' },
      ],
      [
        `/trp/v3/confirmations/${'A'.repeat(43)}`,
        { 'api-version': '3.1.0', 'request-identifier': randomUUID() },
        { txid: 'x\u0000' },
      ],
      [
        `/trp/v3/resolutions/${'A'.repeat(43)}`,
        { 'api-version': '3.1.0', 'request-identifier': randomUUID() },
        { rejected: 'no\u0000' },
      ],
    ];
    for (const [path, headers, body] of cases) {
      const reply = await send({
        cls: 'v2',
        route: path,
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
        defect: 'NUL',
        mayPass: false,
      });
      expect(reply.status, path).toBe(400);
      expect(JSON.parse(reply.text), path).toMatchObject({
        code: 5000,
        status: 5000,
        message: expect.stringMatching(/NUL/),
      });
    }
  });

  it('answers a body over the limit with 413 JSON (4130), with Content-Length and chunked', async () => {
    const rng = new Rng(SEED ^ 0x413);
    for (const path of [
      `${API_BASE}/stream/create`,
      `${API_BASE}/travelrule/create_tx`,
      '/ops/travelrule/transactions/00000000-0000-4000-8000-000000000000/reject',
      `/trp/v3/inquiries/${'A'.repeat(43)}`,
    ]) {
      for (const chunked of [false, true]) {
        const bytes = oversize(rng) as Buffer | { chunked: Buffer };
        const raw = Buffer.isBuffer(bytes) ? bytes : bytes.chunked;
        const c: Case = {
          cls: 'v2',
          route: path,
          method: 'POST',
          path,
          headers: {
            'content-type': 'application/json',
            apikey: apiKey,
            'api-version': '3.1.0',
            'request-identifier': randomUUID(),
          },
          body: chunked ? { chunked: raw } : raw,
          defect: 'over the limit',
          mayPass: false,
        };
        const reply = await send(c);
        expect(reply.status, `${path} chunked=${chunked}`).toBe(413);
        expect(JSON.parse(reply.text)).toMatchObject({ code: 4130, status: 4130 });
      }
    }
    // Exactly at the limit is not refused for its size.
    const at = Buffer.alloc(MAX_BODY_BYTES, 0x20);
    at.write('{"a":"');
    at.write('"}', MAX_BODY_BYTES - 2);
    const reply = await send({
      cls: 'v2',
      route: '',
      method: 'POST',
      path: `${API_BASE}/stream/create`,
      headers: { 'content-type': 'application/json', apikey: apiKey },
      body: at,
      defect: '',
      mayPass: false,
    });
    expect(reply.status).toBe(400);
  });
});
