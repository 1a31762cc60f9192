import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { type AppDeps, createApp } from '../../src/api/app.js';
import { loadConfig, resolveNetworks, unknownEnvVariables } from '../../src/config/index.js';
import { NETWORK_SYMBOLS, networkInfo } from '../../src/config/networks.js';

/**
 * README's configuration table and route lists, checked against the code. Every variable the code
 * reads has a row, every row names one it reads, and a row's default is the one the code applies;
 * every route the app registers under /v2, /ops and /trp is listed with its method and path, and
 * every route listed is registered. Pure: README.md, the config module (its source for the table
 * of variables, the module for the defaults) and the app's route table.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const CONFIG_MODULE = 'src/config/index.ts';

/**
 * Rows whose default README describes in words, since the code computes it when the variable is
 * unset (at start, from another setting, per network): why. The configuration must leave each
 * unset, so a default the code later gives one still fails here.
 */
const DESCRIBED_DEFAULTS: Record<string, string> = {
  TOLLGATE_EMBEDDED_POSTGRES_PORT: 'a free port, chosen at start',
  'TOLLGATE_HEADS_<NETWORK>': 'resolveNetworks: the RPC URL when it is ws(s)://',
  'TOLLGATE_POLL_INTERVAL_MS_<NETWORK>': 'resolveNetworks: indexer_poll_interval_ms; dev chain 200',
  'TOLLGATE_FINALITY_<NETWORK>': 'resolveNetworks: node; depth on the dev chain',
  'TOLLGATE_INTERNAL_TRANSFERS_<NETWORK>': 'resolveNetworks: auto',
  'TOLLGATE_NODE_BEHIND_S_<NETWORK>':
    "the indexer, once it knows the node's chain: the network table's on the mainnet, 0 elsewhere",
  TOLLGATE_DATA_KEY: 'generated once into <data dir>/data.key',
  TOLLGATE_TRAVEL_RULE_PUBLIC_URL: "travelRulePublicUrl: this host's port",
  TOLLGATE_TRAVEL_RULE_INCOMING_KEY: 'the oldest active key, looked up per transfer',
  TOLLGATE_TRP_SERVER_CERT_FILE: 'the listener presents the TRP client certificate',
  TOLLGATE_TRP_SERVER_KEY_FILE: 'the listener uses the TRP client key',
  TOLLGATE_TRP_PUBLIC_URL: "trpPublicUrl: the TRP listener's port",
  TOLLGATE_SMTP_STARTTLS: 'the mailer: required, if_offered for a relay on a loopback host',
  TOLLGATE_DEV_CHAIN: 'wantsDevChain: on when no network has an RPC URL',
};

/** Rows whose default README gives per network ("eth 12, …, others 64; dev chain 3"). */
const PER_NETWORK_LISTS: Record<string, 'confirmations' | 'maxReorgDepth'> = {
  'TOLLGATE_CONFIRMATIONS_<NETWORK>': 'confirmations',
  'TOLLGATE_MAX_REORG_DEPTH_<NETWORK>': 'maxReorgDepth',
};

/** Variables read in src/ or bin/ that are not the appliance's configuration, by file: why. */
const NOT_CONFIGURATION: Record<string, string> = {
  'src/devchain/demo-receiver.ts WEBHOOK_SECRET': "the quick start's demo receiver (Quick start)",
  'src/devchain/demo-receiver.ts PORT': "the quick start's demo receiver",
};

// --- README ------------------------------------------------------------------------------------

/** The lines under a heading, up to the next heading of its level or above (code blocks skipped). */
function section(readme: string, heading: string): string[] {
  const lines = readme.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`README has no heading "${heading}"`);
  let fenced = false;
  for (let i = start + 1; i < lines.length; i++) {
    if (lines[i]!.startsWith('```')) fenced = !fenced;
    const level = /^#+ /.exec(lines[i]!)?.[0].length;
    if (!fenced && level && level <= heading.indexOf(' ') + 1) return lines.slice(start + 1, i);
  }
  return lines.slice(start + 1);
}

/** A table row's cells, trimmed (an escaped `\|` stays in its cell). */
const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());

/** The body rows of the first table in `lines` whose first header cell is `header`. */
function tableRows(lines: string[], header: string): string[][] {
  const start = lines.findIndex((l) => l.startsWith('|') && cells(l)[0] === header);
  if (start < 0) throw new Error(`README has no table headed "${header}" there`);
  const end = lines.findIndex((l, i) => i > start && !l.startsWith('|'));
  return lines.slice(start + 2, end < 0 ? undefined : end).map(cells);
}

// --- the code's variables and defaults -----------------------------------------------------------

interface CodeVariables {
  /** The config module's table: variable → config path. */
  keys: Map<string, string>;
  /** Per-network variables, TOLLGATE_<KEY>_<NETWORK>, as README writes them. */
  perNetwork: string[];
  /** Read outside that table (TOLLGATE_CONFIG, a command's input), each with the file reading it. */
  other: Map<string, string>;
}

/** ENV_KEYS, NETWORK_ENV_KEYS and OTHER_ENV_NAMES of the config module, read from its source. */
function configModuleTables() {
  const text = readFileSync(join(ROOT, CONFIG_MODULE), 'utf8');
  const source = ts.createSourceFile(CONFIG_MODULE, text, ts.ScriptTarget.Latest, true);
  const initializer = (name: string) => {
    for (const st of source.statements)
      for (const d of ts.isVariableStatement(st) ? st.declarationList.declarations : [])
        if (ts.isIdentifier(d.name) && d.name.text === name && d.initializer) return d.initializer;
    throw new Error(`${CONFIG_MODULE} has no const ${name}`);
  };
  const nameOf = (n: ts.Node | undefined) => {
    if (n && (ts.isIdentifier(n) || ts.isStringLiteral(n))) return n.text;
    throw new Error(`${CONFIG_MODULE}: expected a name or a string, got ${n?.getText()}`);
  };
  /** An object of objects, each key with its entry's `field`: { A: { path: 'a' } } → A → 'a'. */
  const entries = (name: string, field: string) => {
    const object = initializer(name);
    if (!ts.isObjectLiteralExpression(object)) throw new Error(`${name}: not an object literal`);
    return new Map(
      object.properties.map((p) => {
        const inner =
          ts.isPropertyAssignment(p) && ts.isObjectLiteralExpression(p.initializer)
            ? p.initializer.properties
            : [];
        const value = inner.find((q) => ts.isPropertyAssignment(q) && nameOf(q.name) === field);
        return [nameOf(p.name), nameOf(value && (value as ts.PropertyAssignment).initializer)];
      }),
    );
  };
  const others = initializer('OTHER_ENV_NAMES');
  if (!ts.isArrayLiteralExpression(others)) throw new Error('OTHER_ENV_NAMES: not an array');
  return {
    keys: entries('ENV_KEYS', 'path'),
    perNetwork: [...entries('NETWORK_ENV_KEYS', 'field').keys()].map(
      (k) => `TOLLGATE_${k}_<NETWORK>`,
    ),
    otherNames: others.elements.map(nameOf),
  };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.m?[jt]s$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Variables read by process.env (or a parameter's `env.TOLLGATE_…`) outside the config module. */
function envReadsElsewhere(): Map<string, string> {
  const out = new Map<string, string>();
  for (const path of [...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'bin'))]) {
    const file = relative(ROOT, path);
    if (file === CONFIG_MODULE) continue;
    const text = readFileSync(path, 'utf8');
    const constant = (id: string) =>
      new RegExp(`\\b${id}\\s*=\\s*['"]([^'"]+)['"]`).exec(text)?.[1] ?? `${id} (unresolved)`;
    for (const m of text.matchAll(
      /process\.env(?:\.(\w+)|\[\s*(?:['"]([^'"]+)['"]|(\w+))\s*\])|\benv\.(TOLLGATE_\w+)/g,
    ))
      out.set(m[1] ?? m[2] ?? m[4] ?? constant(m[3]!), file);
  }
  return out;
}

function codeVariables(): CodeVariables {
  const { keys, perNetwork, otherNames } = configModuleTables();
  const other = new Map(otherNames.map((n) => [n, CONFIG_MODULE]));
  for (const [name, file] of envReadsElsewhere())
    if (!keys.has(name) && !NOT_CONFIGURATION[`${file} ${name}`]) other.set(name, file);
  return { keys, perNetwork, other };
}

const get = (object: unknown, path: string): unknown =>
  path.split('.').reduce((o, k) => (o as Record<string, unknown> | undefined)?.[k], object);

const show = (v: unknown) => (v === undefined ? 'unset' : JSON.stringify(v));

const NONE = /^\((none|empty)\b|^(—|none)$/;

/** README's default cell as a value: (none…) and (empty) as null, `25` as "25"; words: undefined. */
const plainDefault = (cell: string) => (NONE.test(cell) ? null : /^`([^`]*)`$/.exec(cell)?.[1]);

/** Whether README's default cell says what the code applies: `25`, `false`, `a,b`, (none), (empty). */
function sameDefault(cell: string, value: unknown): boolean {
  const plain = plainDefault(cell);
  if (plain === null)
    return value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
  if (plain === undefined) return false;
  if (Array.isArray(value)) return plain === value.join(',') || plain === JSON.stringify(value);
  if (typeof value === 'number') return plain.trim() !== '' && Number(plain) === value;
  return ['string', 'boolean'].includes(typeof value) && plain === String(value);
}

/** What the indexer applies to each network given only its RPC URL, and on the dev chain. */
function networkDefaults() {
  const indexed = NETWORK_SYMBOLS.filter((s) => ['evm', 'utxo'].includes(networkInfo(s)!.family));
  const only = (s: string) => loadConfig({ [`TOLLGATE_RPC_${s.toUpperCase()}`]: 'http://node:1' });
  return {
    perNetwork: new Map(indexed.map((s) => [s, resolveNetworks(only(s))[0]!])),
    devChain: resolveNetworks(loadConfig({}), 'http://127.0.0.1:8545')[0]!,
  };
}

/** A per-network list ("eth 12, bitcoin/litecoin 20, others 64; dev chain 3") against the code. */
function perNetworkProblems(name: string, cell: string, field: 'confirmations' | 'maxReorgDepth') {
  const listed = new Map<string, number>();
  for (const m of cell.matchAll(/(dev chain|[a-z]+(?:\/[a-z]+)*) (\d+)/g))
    for (const n of m[1]!.split('/')) listed.set(n, Number(m[2]));
  const { perNetwork, devChain } = networkDefaults();
  const problems: string[] = [];
  for (const [symbol, network] of [...perNetwork, ['dev chain', devChain] as const]) {
    const said = listed.get(symbol) ?? (symbol === 'dev chain' ? undefined : listed.get('others'));
    if (said === undefined && symbol !== 'dev chain')
      problems.push(`${name}: README's default names no value for ${symbol}`);
    else if (said !== undefined && said !== network[field])
      problems.push(
        `${name}: README's default for ${symbol} is ${said}, the code's ${network[field]}`,
      );
  }
  for (const n of listed.keys())
    if (!perNetwork.has(n) && !['others', 'dev chain'].includes(n))
      problems.push(`${name}: README's default names ${n}, which is not an indexed network`);
  return problems;
}

/** Every disagreement between README's configuration table and the code, one line each. */
function configProblems(readme: string, vars: CodeVariables): string[] {
  const problems: string[] = [];
  const rows = new Map<string, { default: string; configFileOnly: boolean }>();
  for (const [first = '', dflt = ''] of tableRows(section(readme, '## Configuration'), 'variable'))
    for (const [, name] of first.matchAll(/`([^`]+)`/g)) {
      if (rows.has(name!)) problems.push(`${name}: two rows of the configuration table`);
      rows.set(name!, { default: dflt, configFileOnly: first.includes('(config file only)') });
    }
  const read = new Map([
    ...[...vars.keys.keys(), ...vars.perNetwork].map((n) => [n, CONFIG_MODULE] as const),
    ...vars.other,
  ]);
  for (const [name, file] of read)
    if (!rows.has(name))
      problems.push(
        `${name}: read by ${file}, but no row of README's configuration table names it`,
      );

  const defaults = loadConfig({});
  for (const [name, row] of rows) {
    const list = PER_NETWORK_LISTS[name];
    if (list) {
      problems.push(...perNetworkProblems(name, row.default, list));
      continue;
    }
    if (!row.configFileOnly && !read.has(name)) {
      problems.push(`configuration row ${name}: the code reads no such variable`);
      continue;
    }
    // Per-network variables and those read outside the table have no path: unset by default.
    const path = row.configFileOnly ? name : vars.keys.get(name);
    const value = path === undefined ? undefined : get(defaults, path);
    const why = DESCRIBED_DEFAULTS[name];
    if (why === undefined && plainDefault(row.default) === undefined)
      problems.push(
        `${name}: README gives its default in words (${row.default}); give the value, or add it to DESCRIBED_DEFAULTS with the reason`,
      );
    else if (why === undefined && !sameDefault(row.default, value))
      problems.push(`${name}: README's default is ${row.default}, the code's ${show(value)}`);
    else if (why !== undefined && sameDefault(row.default, value))
      problems.push(`${name}: README's default is the code's now: drop it from DESCRIBED_DEFAULTS`);
    else if (why !== undefined && value !== undefined)
      problems.push(
        `${name}: README describes its default (${row.default}; ${why}), but the code's is ${show(value)}`,
      );
  }
  for (const name of [...Object.keys(DESCRIBED_DEFAULTS), ...Object.keys(PER_NETWORK_LISTS)])
    if (!rows.has(name)) problems.push(`${name}: an exception of this test, but README has no row`);
  return problems;
}

// --- the routes ---------------------------------------------------------------------------------

/**
 * A stand-in for every dependency of the app: each property of it is another stand-in, and calling
 * or constructing one throws. Building the app only wires handlers, so its route table comes out
 * whole, and nothing reaches a database or a node.
 */
function inert(name: string): any {
  const refuse = () => {
    throw new Error(`building the route table used ${name}`);
  };
  return new Proxy(() => {}, {
    get: (_, key) =>
      typeof key === 'symbol' || key === 'then' ? undefined : inert(`${name}.${key}`),
    apply: refuse,
    construct: refuse,
  });
}

/** Every method and path the API port registers ("GET /v2/stream/list"), Travel Rule and TRP included. */
function appRoutes(): string[] {
  const deps = {
    sql: inert('sql'),
    allow: inert('allow'),
    aml: inert('aml'),
    travelRule: inert('travelRule'),
    trustProxy: null,
    networks: [...NETWORK_SYMBOLS],
    maxLagBlocks: 50,
    version: 'readme',
    nftIpfsGateway: 'https://ipfs.io/ipfs/',
    requestTimeoutMs: 20_000,
  } as unknown as AppDeps;
  const routes = createApp(deps).routes.filter((r) => r.method !== 'ALL'); // ALL: middleware
  return [...new Set(routes.map((r) => `${r.method} ${r.path}`))];
}

/** "GET /path?query" with `<uuid>` or `:id` → "GET /path/:param", to compare README and the app. */
const routeKey = (route: string) => route.replace(/\?.*$/, '').replace(/<[^>]+>|:\w+/g, ':param');

/** `METHOD /path` in backticks, as README writes a route. */
const ROUTE = /`((?:GET|POST|PUT|PATCH|DELETE) \/[^`\s]*)[^`]*`/g;

interface Listed {
  key: string;
  /** Where README lists it: the row's first cell. */
  row: string;
}

/** The routes the first cells of a table name. */
const listedInTable = (rows: string[][]): Listed[] =>
  rows.flatMap(([first = '']) =>
    [...first.matchAll(ROUTE)].map((m) => ({ key: routeKey(m[1]!), row: first })),
  );

/** Both ways between a README list and the app's routes under `prefix`. */
function listProblems(what: string, listed: Listed[], routes: string[], prefix: string) {
  const path = (key: string) => key.slice(key.indexOf(' ') + 1);
  const registered = new Map(routes.map((r) => [routeKey(r), r]));
  const named = new Set(listed.map((l) => l.key));
  const problems = [...registered]
    .filter(([key]) => path(key).startsWith(prefix) && !named.has(key))
    .map(([, route]) => `${route}: registered by the app, but no row of ${what} names it`);
  for (const { key, row } of listed) {
    if (!path(key).startsWith(prefix) || registered.has(key)) continue;
    const methods = [...registered.keys()].filter((k) => path(k) === path(key));
    const others = methods.map((k) => k.split(' ')[0]).join(', ');
    problems.push(
      `${what}, row ${row}: the app has no ${key}${others ? ` (that path answers ${others})` : ''}`,
    );
  }
  return problems;
}

const ENDPOINTS = "README's endpoint list (API, Endpoints)";

/** Every disagreement between README's route lists and the app's routes, one line each. */
function routeProblems(readme: string, routes: string[]): string[] {
  const endpoints = listedInTable(tableRows(section(readme, '### Endpoints'), 'method and path'));
  const travelRule = section(readme, '## Travel Rule');
  const ops = listedInTable(tableRows(travelRule, 'method and path'));
  const trp = [...travelRule.join('\n').matchAll(ROUTE)]
    .filter((m) => m[1]!.includes(' /trp/'))
    .map((m) => ({ key: routeKey(m[1]!), row: m[0] }));
  const registered = new Set(routes.map(routeKey));
  return [
    ...listProblems(ENDPOINTS, endpoints, routes, '/v2/'),
    // Its rows outside /v2 (the reference, health, metrics) must exist; the reference page's
    // scripts have no row.
    ...endpoints
      .filter((l) => !l.key.includes(' /v2/') && !registered.has(l.key))
      .map((l) => `${ENDPOINTS}, row ${l.row}: the app has no ${l.key}`),
    ...listProblems("README's operator API table (Travel Rule)", ops, routes, '/ops/'),
    ...listProblems("README's TRP endpoints (Travel Rule)", trp, routes, '/trp/'),
  ];
}

// --- the tests ----------------------------------------------------------------------------------

/** The problems a copy of README changed by `edit` has beyond README's own. */
function problemsOfEdit(problems: (readme: string) => string[], edit: (readme: string) => string) {
  const changed = edit(README);
  expect(changed, 'the edit changes README').not.toBe(README);
  const own = new Set(problems(README));
  return problems(changed).filter((p) => !own.has(p));
}

describe('README configuration table', () => {
  const vars = codeVariables();
  const problems = (readme: string) => configProblems(readme, vars);

  it('is checked against every variable the config module knows', () => {
    expect(vars.keys.size).toBeGreaterThan(40);
    expect(vars.keys.get('TOLLGATE_WEBHOOK_MAX_ATTEMPTS')).toBe('webhook_max_attempts');
    expect(vars.perNetwork).toContain('TOLLGATE_RPC_<NETWORK>');
    const names = [...vars.keys.keys(), ...vars.perNetwork, ...vars.other.keys()]
      .filter((n) => n.startsWith('TOLLGATE_'))
      .map((n) => n.replace('<NETWORK>', 'ETH'));
    // The start warns about a variable it does not read: it must know every name found here.
    expect(unknownEnvVariables(Object.fromEntries(names.map((n) => [n, 'x'])))).toEqual([]);
  });

  it('has a row for every variable the code reads, each with the default the code applies', () => {
    expect(problems(README)).toEqual([]);
  });

  it('fails for a row removed, a default changed, a variable the code does not read', () => {
    const row = /^(\| `TOLLGATE_WEBHOOK_MAX_ATTEMPTS` +\| )`25`( .*)\n/m;
    const missing = `TOLLGATE_WEBHOOK_MAX_ATTEMPTS: read by ${CONFIG_MODULE}, but no row of README's configuration table names it`;
    expect(problemsOfEdit(problems, (r) => r.replace(row, ''))).toEqual([missing]);
    expect(problemsOfEdit(problems, (r) => r.replace(row, '$1`26`$2\n'))).toEqual([
      "TOLLGATE_WEBHOOK_MAX_ATTEMPTS: README's default is `26`, the code's 25",
    ]);
    expect(
      problemsOfEdit(problems, (r) =>
        r.replace('`TOLLGATE_WEBHOOK_MAX_ATTEMPTS` ', '`TOLLGATE_WEBHOOK_TRIES` '),
      ),
    ).toEqual([
      missing,
      'configuration row TOLLGATE_WEBHOOK_TRIES: the code reads no such variable',
    ]);
    expect(problemsOfEdit(problems, (r) => r.replace('polygon 128,', 'polygon 64,'))).toEqual([
      "TOLLGATE_CONFIRMATIONS_<NETWORK>: README's default for polygon is 64, the code's 128",
    ]);
  });
});

describe('README route lists', () => {
  const routes = appRoutes();
  const problems = (readme: string) => routeProblems(readme, routes);
  const row = /^\| `POST \/v2\/webhook\/recover` .*\n/m;
  const missing = `POST /v2/webhook/recover: registered by the app, but no row of ${ENDPOINTS} names it`;

  it('are checked against the whole route table', () => {
    expect(routes).toContain('POST /v2/webhook/recover');
    expect(routes).toContain('GET /v2/travelrule/transaction/:id');
    expect(routes).toContain('POST /ops/travelrule/transactions/:id/accept');
    expect(routes).toContain('POST /trp/v3/inquiries/:token');
  });

  it('name every /v2, /ops and /trp route with its method and path, and only those', () => {
    expect(problems(README)).toEqual([]);
  });

  it('fail for a row removed, a method changed, a route the app does not have', () => {
    expect(problemsOfEdit(problems, (r) => r.replace(row, ''))).toEqual([missing]);
    expect(
      problemsOfEdit(problems, (r) =>
        r.replace('`POST /v2/webhook/recover` ', '`PUT /v2/webhook/recover`  '),
      ),
    ).toEqual([
      missing,
      `${ENDPOINTS}, row \`PUT /v2/webhook/recover\`: the app has no PUT /v2/webhook/recover (that path answers POST)`,
    ]);
    expect(
      problemsOfEdit(problems, (r) =>
        r.replace('`POST /v2/webhook/recover` ', '`POST /v2/webhook/recall` '),
      ),
    ).toEqual([
      missing,
      `${ENDPOINTS}, row \`POST /v2/webhook/recall\`: the app has no POST /v2/webhook/recall`,
    ]);
  });
});
