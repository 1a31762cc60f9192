import { randomUUID, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config/index.js';
import { createApiKey } from '../src/keys/keys.js';
import {
  VaspInput,
  findVaspByInboundToken,
  getVasp,
  inboundUrl,
  listVasps,
  removeVasp,
  rotateInboundToken,
  hashInboundToken,
  seedVaspsFromFile,
  upsertVasp,
} from '../src/travelrule/vasps.js';
import { runCli } from './helpers/cli.js';
import { decodeTravelAddress } from '../src/travelrule/trp/travel-address.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';

let db: TestDatabase;
let apiKeyId: string;
const dir = mkdtempSync(join(tmpdir(), 'tollgate-vasps-'));

beforeAll(async () => {
  db = await freshDatabase();
  apiKeyId = (await createApiKey(db.sql, 'travelrule')).id;
});
afterAll(async () => {
  await db?.drop();
});

/** Runs the real CLI (`tollgate …`) from source in a child process. */
const tollgate = (args: string[], env: Record<string, string> = {}) =>
  runCli(db.url, args, env, 'warn');

const parse = (v: unknown) => VaspInput.parse(v);

/** A travel rule transaction naming the VASP as counterparty (or only as the chosen beneficiary VASP). */
async function transactionNaming(
  uid: string,
  column: 'counterparty_vasp_id' | 'beneficiary_vasp_id',
): Promise<void> {
  const id = randomUUID();
  await db.sql`
    insert into travelrule_transactions (id, api_key_id, direction, transaction_ref, asset, amount, decimals, status, ivms101_ciphertext, ivms101_nonce, ivms101_key_id, ${db.sql(column)})
    values (${id}, ${apiKeyId}, 'outgoing', ${'ref-' + id}, 'ETH', 1, 18, 'CREATED', ${Buffer.alloc(32)}, ${Buffer.alloc(12)}, 'test', ${uid})`;
}

describe('VaspInput', () => {
  it('normalises and checks the fields', () => {
    const v = parse({
      name: ' Acme ',
      website: 'https://acme.example',
      country: 'ch',
      legal_name: '',
      email: null,
    });
    expect(v).toEqual({ name: 'Acme', website: 'https://acme.example', country: 'CH' });
    expect(
      parse({ uid: 'AAAAAAAA-0000-4000-8000-000000000001', name: 'X', website: 'http://x.example' })
        .uid,
    ).toBe('aaaaaaaa-0000-4000-8000-000000000001');
    const bad = (over: Record<string, unknown>) =>
      VaspInput.safeParse({ name: 'X', website: 'https://x.example', ...over }).error?.issues[0];
    expect(bad({ website: 'ftp://x.example' })).toMatchObject({
      path: ['website'],
      message: 'must be an http(s) URL',
    });
    // One line: the name is written into the e-mails of the fallback (found by an outside probe).
    expect(bad({ name: 'Line\r\nBcc: x@evil.example' })).toMatchObject({
      path: ['name'],
      message: 'must be one line, without control characters',
    });
    expect(bad({ legal_name: 'Acme\u0085AG' })).toMatchObject({ path: ['legal_name'] });
    expect(bad({ country: 'XX' })).toMatchObject({ path: ['country'] });
    expect(bad({ country: 'CHE' })).toMatchObject({ path: ['country'] });
    expect(bad({ uid: 'nope' })).toMatchObject({ path: ['uid'] });
    expect(bad({ name: '' })).toMatchObject({ path: ['name'] });
    expect(bad({ name: 'n'.repeat(101) })).toMatchObject({ path: ['name'] });
    expect(bad({ legal_name: 'l'.repeat(201) })).toMatchObject({ path: ['legal_name'] });
    expect(bad({ email: 'not an address' })).toMatchObject({ path: ['email'] });
    expect(bad({ trp_endpoint: 'javascript:alert(1)' })).toMatchObject({ path: ['trp_endpoint'] });
    // Inquiries carry personal data: https, or plain http to loopback (development).
    expect(bad({ trp_endpoint: 'http://peer.example/trp' })).toMatchObject({
      path: ['trp_endpoint'],
      message: /must be https/,
    });
    expect(bad({ trp_endpoint: 'http://127.0.0.1:9000/trp' })).toBeUndefined();
    expect(bad({ trp_endpoint: 'https://peer.example/trp' })).toBeUndefined();
    // A Travel Address (TRP 3.1 ta…, or LNURL) is taken as the endpoint; a broken one is not.
    expect(bad({ trp_endpoint: 'ta2W2HPKfHxgSgrzY178knqXHg1H3jfeQrwQ9JrKBs9wv' })).toBeUndefined();
    expect(
      bad({
        trp_endpoint:
          'LNURL1DP68GURN8GHJ7MMSV4H8VCTNWQH8GETNWSKKUET59E5K7TE3XGEN7ARPVU7KJMN3W45HY7GF5KZ53',
      }),
    ).toBeUndefined();
    expect(bad({ trp_endpoint: 'ta2W2HPKfHxgSgrzY178knqXHg1H3jfeQrwQ9JrKBs9wW' })).toMatchObject({
      path: ['trp_endpoint'],
      message: /checksum/,
    });
    expect(bad({ trp_slip0044: 'symbol' })).toBeUndefined();
    expect(bad({ trp_slip0044: 'hex' })).toMatchObject({
      path: ['trp_slip0044'],
      message: 'must be number or symbol',
    });
    expect(bad({ inbound_token: 'too-short' })).toMatchObject({ path: ['inbound_token'] });
    expect(bad({ inbound_token: 'x'.repeat(31) + '!' })).toMatchObject({ path: ['inbound_token'] });
    expect(bad({ inbound_token: 'x'.repeat(32) })).toBeUndefined();
  });
});

describe('the VASP directory', () => {
  it('inserts with a generated uid and token, updates by uid keeping the token, and finds by token', async () => {
    const created = await upsertVasp(
      db.sql,
      parse({
        name: 'Alpine Exchange',
        website: 'https://alpine.example',
        country: 'ch',
        trp_endpoint: 'https://trp.alpine.example/inquiries',
      }),
      'cli',
    );
    expect(created).toMatchObject({
      name: 'Alpine Exchange',
      country: 'CH',
      legal_name: null,
      email: null,
      source: 'cli',
      trp_endpoint: 'https://trp.alpine.example/inquiries',
    });
    expect(created.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.inbound_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created.created_at).toBeInstanceOf(Date);
    // Only the token's SHA-256 is stored, like an API key's.
    const [stored] = await db.sql`select * from vasps where uid = ${created.uid}`;
    expect(JSON.stringify(stored)).not.toContain(created.inbound_token);
    expect(stored!.inbound_token_hash).toBe(hashInboundToken(created.inbound_token!));
    expect((await findVaspByInboundToken(db.sql, created.inbound_token!))?.uid).toBe(created.uid);

    const updated = await upsertVasp(
      db.sql,
      parse({
        uid: created.uid,
        name: 'Alpine Exchange AG',
        website: 'https://alpine.example',
        email: 'travelrule@alpine.example',
      }),
      'dashboard',
    );
    expect(updated).toMatchObject({
      uid: created.uid,
      name: 'Alpine Exchange AG',
      country: null,
      trp_endpoint: null,
      email: 'travelrule@alpine.example',
      source: 'dashboard',
    });
    // An update without a token keeps the VASP's one, and does not know it.
    expect(updated).not.toHaveProperty('inbound_token');
    expect((await findVaspByInboundToken(db.sql, created.inbound_token!))?.uid).toBe(created.uid);
    expect(updated.updated_at.getTime()).toBeGreaterThanOrEqual(created.updated_at.getTime());
    expect(await getVasp(db.sql, created.uid)).toEqual(updated);

    const token = 'T'.repeat(40);
    const given = await upsertVasp(
      db.sql,
      parse({
        uid: created.uid,
        name: 'Alpine Exchange AG',
        website: 'https://alpine.example',
        inbound_token: token,
      }),
      'cli',
    );
    expect(given.inbound_token).toBe(token);
    const found = await findVaspByInboundToken(db.sql, token);
    expect(found).toMatchObject({ uid: created.uid, name: 'Alpine Exchange AG' });
    expect(found).not.toHaveProperty('inbound_token');
    expect(await findVaspByInboundToken(db.sql, 'T'.repeat(41))).toBeUndefined();
    expect(await findVaspByInboundToken(db.sql, 'nope')).toBeUndefined();
    expect(await getVasp(db.sql, 'not-a-uuid')).toBeUndefined();
    expect(await getVasp(db.sql, randomUUID())).toBeUndefined();

    const other = await upsertVasp(
      db.sql,
      parse({ name: 'Other', website: 'https://other.example' }),
      'cli',
    );
    await expect(
      upsertVasp(
        db.sql,
        parse({
          uid: other.uid,
          name: 'Other',
          website: 'https://other.example',
          inbound_token: token,
        }),
        'cli',
      ),
    ).rejects.toThrow(/another VASP/);
    await db.sql`delete from vasps`;
  });

  it('rotates the inbound token: the old one stops finding the VASP', async () => {
    const v = await upsertVasp(
      db.sql,
      parse({ name: 'Rotor', website: 'https://rotor.example' }),
      'cli',
    );
    const fresh = await rotateInboundToken(db.sql, v.uid);
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fresh).not.toBe(v.inbound_token);
    expect(await findVaspByInboundToken(db.sql, v.inbound_token!)).toBeUndefined();
    expect((await findVaspByInboundToken(db.sql, fresh!))?.uid).toBe(v.uid);
    expect(await rotateInboundToken(db.sql, randomUUID())).toBeUndefined();
    expect(inboundUrl('https://tollgate.example.com/', 'abc')).toBe(
      'https://tollgate.example.com/trp/v3/inquiries/abc',
    );
    expect(inboundUrl('https://tollgate.example.com:8443', 'abc')).toBe(
      'https://tollgate.example.com:8443/trp/v3/inquiries/abc',
    );
    await db.sql`delete from vasps`;
  });

  it('lists by name (case-insensitive), then uid, page by page, with the total', async () => {
    const names = ['delta', 'Bravo', 'alpha', 'Charlie', 'echo'];
    for (const name of names)
      await upsertVasp(
        db.sql,
        parse({
          name,
          website: `https://${name.toLowerCase()}.example`,
          legal_name: `${name} Ltd`,
        }),
        'cli',
      );
    const same1 = await upsertVasp(
      db.sql,
      parse({
        uid: 'ffffffff-0000-4000-8000-000000000000',
        name: 'Alpha',
        website: 'https://alpha2.example',
      }),
      'cli',
    );
    const same0 = await upsertVasp(
      db.sql,
      parse({
        uid: '00000000-0000-4000-8000-000000000000',
        name: 'ALPHA',
        website: 'https://alpha3.example',
      }),
      'cli',
    );
    const first = await listVasps(db.sql, 1, 3);
    expect(first.total).toBe(7);
    expect(first.rows.map((r) => r.name)).toEqual(['ALPHA', 'alpha', 'Alpha']);
    expect(first.rows[0]!.uid).toBe(same0.uid);
    expect(first.rows[2]!.uid).toBe(same1.uid);
    expect(Object.keys(first.rows[0]!).sort()).toEqual([
      'country',
      'legal_name',
      'name',
      'uid',
      'website',
    ]);
    expect((await listVasps(db.sql, 2, 3)).rows.map((r) => r.name)).toEqual([
      'Bravo',
      'Charlie',
      'delta',
    ]);
    expect((await listVasps(db.sql, 3, 3)).rows.map((r) => r.name)).toEqual(['echo']);
    expect(await listVasps(db.sql, 4, 3)).toEqual({ rows: [], total: 7 });
    await db.sql`delete from vasps`;
  });

  it('removes an unused VASP; not_found and in_use otherwise', async () => {
    const free = await upsertVasp(
      db.sql,
      parse({ name: 'Free', website: 'https://free.example' }),
      'cli',
    );
    expect(await removeVasp(db.sql, free.uid)).toBe('removed');
    expect(await getVasp(db.sql, free.uid)).toBeUndefined();
    expect(await removeVasp(db.sql, free.uid)).toBe('not_found');
    expect(await removeVasp(db.sql, 'garbage')).toBe('not_found');

    const counterparty = await upsertVasp(
      db.sql,
      parse({ name: 'Counterparty', website: 'https://cp.example' }),
      'cli',
    );
    await transactionNaming(counterparty.uid, 'counterparty_vasp_id');
    expect(await removeVasp(db.sql, counterparty.uid)).toBe('in_use');
    expect(await getVasp(db.sql, counterparty.uid)).toBeDefined();

    const chosen = await upsertVasp(
      db.sql,
      parse({ name: 'Chosen', website: 'https://chosen.example' }),
      'cli',
    );
    await transactionNaming(chosen.uid, 'beneficiary_vasp_id');
    expect(await removeVasp(db.sql, chosen.uid)).toBe('in_use');
    expect(await getVasp(db.sql, chosen.uid)).toBeDefined();
  });
});

describe('seedVaspsFromFile', () => {
  const entries = [
    {
      uid: '11111111-1111-4111-8111-111111111111',
      name: 'Seeded One',
      website: 'https://one.example',
      country: 'de',
      trp_endpoint: 'https://trp.one.example',
    },
    {
      $comment: 'reached by e-mail',
      uid: '22222222-2222-4222-8222-222222222222',
      name: 'Seeded Two',
      website: 'https://two.example',
      email: 'tr@two.example',
      legal_name: 'Two GmbH',
    },
  ];
  const write = (name: string, data: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof data === 'string' ? data : JSON.stringify(data));
    return path;
  };

  it('adds, then is idempotent, then counts only changed entries; tokens survive', async () => {
    const path = write('vasps.json', entries);
    expect(await seedVaspsFromFile(db.sql, path)).toEqual({ added: 2, updated: 0 });
    const before = await getVasp(db.sql, entries[0]!.uid);
    expect(before).toMatchObject({ name: 'Seeded One', country: 'DE', source: 'config' });
    expect(await seedVaspsFromFile(db.sql, path)).toEqual({ added: 0, updated: 0 });
    expect((await getVasp(db.sql, entries[0]!.uid))!.updated_at).toEqual(before!.updated_at);

    write('vasps.json', [{ ...entries[0], name: 'Seeded One Renamed' }, entries[1]]);
    expect(await seedVaspsFromFile(db.sql, path)).toEqual({ added: 0, updated: 1 });
    const hashOf = async () =>
      (await db.sql`select inbound_token_hash from vasps where uid = ${entries[0]!.uid}`)[0]!
        .inbound_token_hash;
    const hashBefore = await hashOf();
    write('vasps.json', [{ ...entries[0], name: 'Seeded One Renamed Again' }, entries[1]]);
    expect(await seedVaspsFromFile(db.sql, path)).toEqual({ added: 0, updated: 1 });
    const after = await getVasp(db.sql, entries[0]!.uid);
    expect(after).toMatchObject({ name: 'Seeded One Renamed Again' });
    // The token survives an update that gives none.
    expect(await hashOf()).toBe(hashBefore);
    const [count] = await db.sql<
      { n: number }[]
    >`select count(*)::int as n from vasps where uid in ${db.sql(entries.map((e) => e.uid))}`;
    expect(count!.n).toBe(2);
  });

  it('a missing file seeds nothing; the shipped config/vasps.json is an empty list', async () => {
    expect(await seedVaspsFromFile(db.sql, join(dir, 'absent.json'))).toEqual({
      added: 0,
      updated: 0,
    });
    expect(await seedVaspsFromFile(db.sql, 'config/vasps.json')).toEqual({ added: 0, updated: 0 });
  });

  it('an invalid entry names the file, the index and the field, and nothing is written', async () => {
    const fresh = {
      uid: '33333333-3333-4333-8333-333333333333',
      name: 'Would Be Added',
      website: 'https://three.example',
    };
    const cases: [unknown, RegExp][] = [
      [
        [fresh, entries[0], { ...entries[1], website: 'mailto:x@two.example' }],
        /bad\.json\[2\]\.website: must be an http\(s\) URL$/,
      ],
      [
        [fresh, { ...entries[0], country: 'Germany' }],
        /bad\.json\[1\]\.country: must be an ISO 3166-1 alpha-2 country code$/,
      ],
      [[fresh, { name: 'No Uid', website: 'https://x.example' }], /bad\.json\[1\]\.uid: required/],
      [
        [fresh, { uid: entries[0]!.uid, website: 'https://x.example' }],
        /bad\.json\[1\]\.name: required$/,
      ],
      [
        [fresh, { ...entries[0], trp_enpoint: 'https://typo.example' }],
        /bad\.json\[1\]: unknown field "trp_enpoint"$/,
      ],
      [[fresh, fresh], /bad\.json\[1\]\.uid: the same as entry \[0\]$/],
      [[fresh, 'a string'], /bad\.json\[1\]: must be an object$/],
      [{ vasps: [] }, /bad\.json: must be a JSON array/],
      ['[{', /bad\.json: not valid JSON/],
    ];
    for (const [data, message] of cases) {
      const path = write('bad.json', data);
      const err = await seedVaspsFromFile(db.sql, path).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toMatch(message);
    }
    expect(await getVasp(db.sql, fresh.uid)).toBeUndefined();
  });

  it('names the path as given, relative to the project', async () => {
    const err = await seedVaspsFromFile(db.sql, 'package.json').catch((e: unknown) => e);
    expect((err as Error).message).toBe('package.json: must be a JSON array of VASP entries');
  });
});

describe('tollgate vasps CLI', () => {
  const env = { TOLLGATE_TRAVEL_RULE_PUBLIC_URL: 'https://tollgate.example.com/' };

  it('travel-address prints the Travel Address of a customer deposit address, the same each time', async () => {
    const address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    const dataEnv = { ...env, TOLLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'tollgate-ta-')) };
    const run = (more: string[]) => tollgate(['travel-address', ...more], dataEnv);
    const args = ['--key', 'travelrule', '--network', 'eth', '--address', address];
    const first = run(args);
    expect(await first.exited).toBe(0);
    const issued = JSON.parse(first.lastLine());
    expect(issued).toMatchObject({ network: 'eth', address: address.toLowerCase() });
    const decoded = decodeTravelAddress(issued.travel_address);
    expect(decoded.ok && decoded.url.href).toBe(`${issued.url}?t=i`);
    expect(issued.url).toMatch(/^https:\/\/tollgate\.example\.com\/trp\/v3\/inquiries\//);
    const again = run(args);
    expect(await again.exited).toBe(0);
    expect(JSON.parse(again.lastLine()).travel_address).toBe(issued.travel_address);
    const bad = run(['--key', 'travelrule', '--network', 'eth', '--address', 'nope']);
    expect(await bad.exited).toBe(1);
    expect(bad.err()).toContain('address: not a valid eth address');
    const noKey = run(['--key', 'nobody', '--network', 'eth', '--address', address]);
    expect(await noKey.exited).toBe(1);
    expect(noKey.err()).toContain('no active API key named nobody');
    const usage = run(['--key', 'travelrule']);
    expect(await usage.exited).toBe(2);
    // Two active keys of one name: which key's customer the address is must not be a guess.
    const twin = await createApiKey(db.sql, 'travelrule');
    const ambiguous = run(args);
    expect(await ambiguous.exited).toBe(1);
    expect(ambiguous.err()).toMatch(
      new RegExp(
        `2 active API keys are named travelrule \\(ids \\d+, ${twin.id}\\): name one with --key-id`,
      ),
    );
    const chosen = run(['--key-id', String(twin.id), '--network', 'eth', '--address', address]);
    expect(await chosen.exited).toBe(0);
    expect(await db.sql`select 1 from travel_addresses where api_key_id = ${twin.id}`).toHaveLength(
      1,
    );
    const both = run([
      '--key',
      'travelrule',
      '--key-id',
      String(twin.id),
      '--network',
      'eth',
      '--address',
      address,
    ]);
    expect(await both.exited).toBe(2);
    await db.sql`update api_keys set revoked_at = now() where id = ${twin.id}`;
  });

  it('add prints the VASP with its inbound_url once; list, show, rotate-token and remove work', async () => {
    const add = tollgate(
      [
        'vasps',
        'add',
        '--name',
        'Cli Exchange',
        '--website',
        'https://cli.example',
        '--country',
        'fr',
        '--email',
        'tr@cli.example',
      ],
      env,
    );
    expect(await add.exited).toBe(0);
    const created = JSON.parse(add.lastLine());
    expect(created).toMatchObject({
      name: 'Cli Exchange',
      country: 'FR',
      email: 'tr@cli.example',
      trp_endpoint: null,
      source: 'cli',
    });
    expect(created.inbound_token).toBeUndefined();
    // The inbound URL is printed once, when made; only the token's hash is stored.
    const token = new URL(created.inbound_url).pathname.split('/').at(-1)!;
    expect(created.inbound_url).toBe(`https://tollgate.example.com/trp/v3/inquiries/${token}`);
    expect((await findVaspByInboundToken(db.sql, token))?.uid).toBe(created.uid);

    const showOne = tollgate(['vasps', 'show', created.uid], { TOLLGATE_PORT: '9443' });
    expect(await showOne.exited).toBe(0);
    const shown = JSON.parse(showOne.lastLine());
    expect(shown).toMatchObject({ uid: created.uid, name: 'Cli Exchange' });
    expect(shown).not.toHaveProperty('inbound_url');
    expect(showOne.out()).not.toContain(token);

    const [table, json] = [tollgate(['vasps', 'list']), tollgate(['vasps', 'list', '--json'])];
    expect(await table.exited).toBe(0);
    expect(table.out()).toMatch(
      new RegExp(`${created.uid}\\s+Cli Exchange\\s+FR\\s+e-mail\\s+https://cli.example`),
    );
    expect(table.out()).not.toContain(token);
    expect(await json.exited).toBe(0);
    const listed = JSON.parse(json.lastLine());
    expect(listed).toContainEqual(
      expect.objectContaining({ uid: created.uid, email: 'tr@cli.example' }),
    );
    expect(json.out()).not.toContain(token);

    const rotate = tollgate(['vasps', 'rotate-token', created.uid], env);
    expect(await rotate.exited).toBe(0);
    const rotated = new URL(rotate.lastLine()).pathname.split('/').at(-1)!;
    expect(rotated).not.toBe(token);
    expect(rotate.lastLine()).toBe(`https://tollgate.example.com/trp/v3/inquiries/${rotated}`);
    expect((await findVaspByInboundToken(db.sql, rotated))?.uid).toBe(created.uid);
    expect(await findVaspByInboundToken(db.sql, token)).toBeUndefined();

    const remove = tollgate(['vasps', 'remove', created.uid]);
    expect(await remove.exited).toBe(0);
    expect(await getVasp(db.sql, created.uid)).toBeUndefined();
    const [again, show] = [
      tollgate(['vasps', 'remove', created.uid]),
      tollgate(['vasps', 'show', created.uid]),
    ];
    expect(await again.exited).toBe(1);
    expect(again.err()).toContain(`no VASP with uid ${created.uid}`);
    expect(await show.exited).toBe(1);
  });

  it('remove refuses a VASP in use; import adds and updates with source cli', async () => {
    const used = await upsertVasp(
      db.sql,
      parse({ name: 'Used', website: 'https://used.example' }),
      'cli',
    );
    await transactionNaming(used.uid, 'counterparty_vasp_id');
    const path = join(dir, 'import.json');
    writeFileSync(
      path,
      JSON.stringify([
        {
          uid: '44444444-4444-4444-8444-444444444444',
          name: 'Imported',
          website: 'https://imported.example',
        },
        { uid: used.uid, name: 'Used Renamed', website: 'https://used.example' },
      ]),
    );
    const [remove, imported] = [
      tollgate(['vasps', 'remove', used.uid]),
      tollgate(['vasps', 'import', path]),
    ];
    expect(await remove.exited).toBe(1);
    expect(remove.err()).toContain('named by travel rule transactions');
    expect(await imported.exited).toBe(0);
    expect(JSON.parse(imported.lastLine())).toMatchObject({ entries: 2, added: 1, updated: 1 });
    expect(await getVasp(db.sql, '44444444-4444-4444-8444-444444444444')).toMatchObject({
      name: 'Imported',
      source: 'cli',
    });
    expect(await getVasp(db.sql, used.uid)).toMatchObject({ name: 'Used Renamed' });
    // Its inbound URL still works: the import gave no token.
    expect((await findVaspByInboundToken(db.sql, used.inbound_token!))?.uid).toBe(used.uid);
  });

  it('tls makes a development CA and a certificate; vasps add pins it by file or fingerprint, one VASP per certificate', async () => {
    const tlsDir = mkdtempSync(join(tmpdir(), 'tollgate-tls-'));
    const ca = tollgate(['tls', 'dev-ca', '--out', join(tlsDir, 'ca')]);
    expect(await ca.exited).toBe(0);
    const cert = tollgate([
      'tls',
      'dev-cert',
      '--ca',
      join(tlsDir, 'ca'),
      '--host',
      'peer.example',
      '--host',
      '127.0.0.1',
      '--out',
      join(tlsDir, 'peer'),
    ]);
    expect(await cert.exited).toBe(0);
    const made = cert.lastJson();
    const x509 = new X509Certificate(readFileSync(made.cert, 'utf8'));
    expect(made.fingerprint).toBe(x509.fingerprint256);
    expect(x509.subjectAltName).toBe('DNS:peer.example, IP Address:127.0.0.1');
    expect(
      x509.checkIssued(new X509Certificate(readFileSync(join(tlsDir, 'ca', 'ca.pem'), 'utf8'))),
    ).toBe(true);
    expect(statSync(made.key).mode & 0o777).toBe(0o600);
    const print = tollgate(['tls', 'fingerprint', made.cert]);
    expect(await print.exited).toBe(0);
    expect(print.lastLine()).toBe(made.fingerprint);
    // Never overwrites.
    const again = tollgate(['tls', 'dev-ca', '--out', join(tlsDir, 'ca')]);
    expect(await again.exited).toBe(1);
    expect(again.err()).toMatch(/exists already/);

    const add = tollgate([
      'vasps',
      'add',
      '--name',
      'Pinned Exchange',
      '--website',
      'https://pinned.example',
      '--trp-endpoint',
      'https://pinned.example/trp',
      '--trp-tls-cert',
      made.cert,
      '--trp-tls-fingerprint',
      'aa'.repeat(32),
    ]);
    expect(await add.exited).toBe(0);
    const vasp = add.lastJson();
    expect(vasp.trp_tls_fingerprints).toEqual(['AA:'.repeat(31) + 'AA', made.fingerprint]);
    const list = tollgate(['vasps', 'list']);
    expect(await list.exited).toBe(0);
    expect(list.out()).toMatch(/Pinned Exchange\s+-\s+trp\+mtls/);
    // The same certificate for a second VASP is refused, naming the first.
    const other = tollgate([
      'vasps',
      'add',
      '--name',
      'Other',
      '--website',
      'https://other.example',
      '--trp-tls-fingerprint',
      made.fingerprint.replace(/:/g, '').toLowerCase(),
    ]);
    expect(await other.exited).toBe(1);
    expect(other.err()).toMatch(/pinned for VASP Pinned Exchange/);
    const bad = tollgate([
      'vasps',
      'add',
      '--name',
      'Bad',
      '--website',
      'https://bad.example',
      '--trp-tls-fingerprint',
      'not-a-fingerprint',
    ]);
    expect(await bad.exited).toBe(2);
    expect(bad.err()).toMatch(/--trp-tls-fingerprint: must be a SHA-256 fingerprint/);
  });

  it('bad arguments: a message on stderr and exit 2 (or 1 for a bad file)', async () => {
    const badFile = join(dir, 'bad-import.json');
    writeFileSync(
      badFile,
      JSON.stringify([
        { uid: '55555555-5555-4555-8555-555555555555', name: 'X', website: 'gopher://x' },
      ]),
    );
    const runs = [
      { args: ['vasps'], code: 2, err: /Usage:/ },
      {
        args: ['vasps', 'add', '--name', 'No Website'],
        code: 2,
        err: /needs --name and --website/,
      },
      {
        args: ['vasps', 'add', '--name', 'X', '--website', 'ftp://x.example'],
        code: 2,
        err: /--website: must be an http\(s\) URL/,
      },
      {
        args: ['vasps', 'add', '--name', 'X', '--website', 'https://x.example', '--country', 'ZZ'],
        code: 2,
        err: /--country: must be an ISO 3166-1/,
      },
      {
        args: ['vasps', 'add', '--name', 'X', '--website', 'https://x.example', '--bogus'],
        code: 2,
        err: /Unknown option/,
      },
      { args: ['vasps', 'show'], code: 2, err: /exactly one <uid>/ },
      { args: ['vasps', 'import', join(dir, 'missing.json')], code: 1, err: /no such file/ },
      {
        args: ['vasps', 'import', badFile],
        code: 1,
        err: /bad-import\.json\[0\]\.website: must be an http\(s\) URL/,
      },
    ].map((c) => ({ ...c, run: tollgate(c.args) }));
    for (const { args, code, err, run } of runs) {
      expect(await run.exited, args.join(' ')).toBe(code);
      expect(run.err(), args.join(' ')).toMatch(err);
    }
  });
});
