import { DtiTable } from '../../src/travelrule/trp/assets.js';
import { randomInt } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allRoutes, createApp, type AppDeps } from '../../src/api/app.js';
import type { Route } from '../../src/api/route.js';
import { loadConfig } from '../../src/config/index.js';
import type { Sql } from '../../src/db/index.js';
import { loadKeyring } from '../../src/travelrule/crypto.js';
import { parseAllowList } from '../../src/net/ssrf.js';

/**
 * Tools of the bad-input tests: a small seeded PRNG (replayable runs), pools of hostile values,
 * the appliance's route table, and a detector of internals leaking into a response body.
 */

/** mulberry32: 32-bit state, good enough to spread cases, and the same sequence for a seed. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  hex(chars: number): string {
    let s = '';
    for (let i = 0; i < chars; i++) s += '0123456789abcdef'[this.int(16)];
    return s;
  }
}

/** FUZZ_SEED (decimal or 0x hex) replays a run; otherwise a fresh 32-bit seed. */
export function fuzzSeed(env: string | undefined = process.env.FUZZ_SEED): number {
  if (env !== undefined && env.trim() !== '') {
    const n = Number(env.trim());
    if (!Number.isSafeInteger(n) || n < 0)
      throw new Error(`FUZZ_SEED must be a non-negative integer, got ${env}`);
    return n >>> 0;
  }
  return randomInt(0, 2 ** 32 - 1);
}

/** Strings no field should take as valid: odd unicode, control characters, injections. None contains "://" (no DNS lookups). */
export const ODD_STRINGS: readonly string[] = [
  '',
  ' ',
  '\t',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\ud83dy',
  '\u202eRTL\u202c',
  '\u200b',
  '\u200f\u200e',
  '\ufeff',
  '\ufffd',
  '😀',
  '👩‍👩‍👧‍👦',
  '\u0301',
  'Z̴͉̈a̶̰̿l̷̟̾g̸̱̈́o̶̤͝',
  '\u00c0\u00af',
  '\u2028\u2029',
  'ｆｕｌｌ',
  'İı',
  '١٢٣',
  '\r\n',
  '\u001b[31m',
  '../../../etc/passwd',
  '%00',
  '%',
  '%zz',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log-injection probe, not a template
  '${jndi:ldap:x}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'toString',
  'null',
  'undefined',
  'NaN',
  '-0',
  'true',
  '[]',
  '{}',
];

export const SQL_STRINGS: readonly string[] = [
  "' OR '1'='1",
  "'; drop table api_keys; --",
  '" OR 1=1 --',
  '1; select pg_sleep(5)',
  "' union select key_hash from api_keys --",
  "\\'; copy api_keys to '/tmp/x'; --",
  '$1',
  "'::text",
  "E'\\x00'",
  "0x' or 1=1#",
  "admin'--",
  "%' and 1=1 and '%'='",
];

/** Values of a wrong JSON type for any field whose schema is a string, number or boolean. */
export const WRONG_TYPES: readonly unknown[] = [
  0,
  -1,
  1.5,
  1e308,
  -0,
  2 ** 53,
  Number.MAX_SAFE_INTEGER,
  true,
  false,
  null,
  [],
  [''],
  {},
  { $gt: '' },
  [[[]]],
  { length: 1 },
];

/** Query values for whole-number parameters that must be refused. */
export const BAD_INTEGERS: readonly string[] = [
  '0',
  '-1',
  '1e309',
  '9007199254740992',
  '1.5',
  '',
  ' 1',
  '1 ',
  '0x10',
  '+1',
  'NaN',
  'Infinity',
  '-Infinity',
  '1,2',
  '١',
  '1e3',
  '9'.repeat(400),
  '1000001',
  '99999999999',
  '-0',
  'null',
  '[1]',
  '1\u0000',
  '\u0661',
];

/** Webhook URLs that must be refused without a DNS lookup (no host names: literals or not URLs). */
export const BAD_URLS: readonly string[] = [
  'javascript:alert(1)',
  'ftp://10.0.0.1/x',
  'file:///etc/passwd',
  'http://10.0.0.1/hook',
  'http://169.254.169.254/latest/meta-data',
  'http://[fe80::1]/x',
  'http://100.64.0.1/x',
  'http://[::ffff:10.0.0.1]/x',
  'http://0.0.0.0/',
  'http://192.168.1.1:8080/x',
  'data:text/plain,hi',
  'gopher://10.0.0.1:70/',
  'http://[::]/',
  'http:\\\\10.0.0.1',
  '//10.0.0.1/x',
  'http://',
  'https://:443',
  'http://user:pass@10.0.0.2/',
  'http://224.0.0.1/',
  'http://[fc00::1]/',
];

/** Raw bodies that are not JSON at all. */
export const INVALID_JSON: readonly string[] = [
  '{',
  '}',
  '{"a":',
  '[1,2',
  "{'a':1}",
  '{"a":1,}',
  'undefined',
  'NaN',
  '{a:1}',
  '\u0000',
  '{"a":"\u0000',
  '\ufeff{}',
  '{"a":1}{"b":2}',
  '"unterminated',
  '[',
  'tru',
  'nul',
  '{"a":01}',
  '{"a":.5}',
  '{"a":+1}',
  '{"\\ud800":1',
  '{"a":"\\x41"}',
  '{"a":"\\u12"}',
  '<xml/>',
  '--',
  '/* */{}',
  'a=1&b=2',
];

/** Raw byte sequences (invalid or tricky UTF-8): lone continuation, overlong '/', CESU surrogate, 0xFF. */
export const RAW_BYTES: readonly number[][] = [
  [0x80],
  [0xc0, 0xaf],
  [0xe0, 0x80, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xff, 0xfe],
  [0xfe],
  [0xc3],
  [0xf4, 0x90, 0x80, 0x80],
];

export function deepArray(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

export function deepObject(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/**
 * Signs of internals in a body: stack frames, source paths, Postgres' own error texts. Returns
 * what matched, or undefined.
 */
export function leak(text: string): string | undefined {
  const patterns: RegExp[] = [
    /\n\s+at \S/,
    /\bat [\w.<>]+ \(/,
    /\bat (file:\/\/|\/|node:)/,
    /\.(ts|js|tsx|mjs):\d+(:\d+)?/,
    /node_modules/,
    /\/work\/main|\/src\/(api|db|travelrule|aml)\//,
    /syntax error at or near/i,
    /relation "[^"]+" does not exist/i,
    /violates [\w ]*constraint/i,
    /invalid input syntax for/i,
    /PostgresError/,
    /duplicate key value/i,
    /column "[^"]+" (does not exist|of relation)/i,
    /\b(TypeError|RangeError|ReferenceError|SyntaxError):/,
    /Maximum call stack/i,
  ];
  for (const p of patterns) {
    const m = p.exec(text);
    if (m) return m[0];
  }
  return undefined;
}

export interface RouteTableEntry {
  method: string;
  path: string;
}

/**
 * The appliance's route table, built as the appliance builds it (createApp with the Travel Rule):
 * `v2` the /v2 routes with their schemas (allRoutes), `all` every method and path registered
 * (the view link, /ops, /dashboard, /trp included; middleware left out). A route added to the
 * appliance appears here without a change to the tests.
 */
export function routeTable(sql: Sql): { v2: Route[]; all: RouteTableEntry[] } {
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-routes-'));
  const config = loadConfig({
    DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused',
    TOLLGATE_DATA_DIR: dataDir,
  });
  const allow = parseAllowList(config.webhook_allow_cidrs);
  const travelRule = {
    sql,
    keyring: loadKeyring({ dataDir }),
    config: config.travel_rule,
    aml: config.aml,
    dtis: DtiTable.load(),
    indexedNetworks: ['eth'],
    publicUrl: 'https://localhost',
    trpUrl: 'https://localhost',
    maxAttempts: config.webhook_max_attempts,
    allow,
  };
  const deps: AppDeps = {
    sql,
    allow,
    trustProxy: null,
    networks: ['eth'],
    maxLagBlocks: config.indexer_max_lag_blocks,
    version: 'test',
    nftIpfsGateway: config.nft_ipfs_gateway,
    aml: config.aml,
    travelRule,
    requestTimeoutMs: config.request_timeout_ms,
  };
  const app = createApp(deps);
  const seen = new Set<string>();
  const all: RouteTableEntry[] = [];
  for (const r of app.routes) {
    if (r.method === 'ALL') continue; // middleware
    const key = `${r.method} ${r.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    all.push({ method: r.method, path: r.path });
  }
  return { v2: allRoutes(deps), all };
}
