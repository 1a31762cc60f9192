import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { API_ONLY, startTestAppliance } from './helpers/appliance.js';
import { randomAddress } from './helpers/chain.js';
import { runCli } from './helpers/cli.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { call } from './helpers/http.js';

/**
 * Rotating an API key (issue 17, point 2): `tollgate keys rotate` gives the same key a new
 * secret, so its streams (and everything else of it) stay; the replaced secret is accepted for
 * the overlap and refused after it, also by an API process that has it in memory.
 */

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let original: { id: string; apikey: string; webhook_secret: string };
const address = randomAddress().toLowerCase();

beforeAll(async () => {
  db = await freshDatabase();
  original = await createApiKey(db.sql, 'rotating');
  app = await startTestAppliance(db.url, {}, API_ONLY);
  const created = await call(app.baseUrl, 'POST', '/v2/stream/create', {
    headers: { apikey: original.apikey },
    body: { address, webhook: 'http://127.0.0.1:1/stream' },
  });
  expect(created.json).toMatchObject({ code: 0 });
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await db?.drop();
});

const streamsOf = (apikey: string) =>
  call(app.baseUrl, 'GET', '/v2/stream/list', { headers: { apikey } });

async function rotate(
  target: string,
  overlapHours: string,
): Promise<{ id: string; apikey: string; previous_until: string | null }> {
  const run = runCli(db.url, ['keys', 'rotate', target, '--overlap-hours', overlapHours]);
  expect(await run.exited, run.err()).toBe(0);
  return run.lastJson();
}

describe('tollgate keys rotate', () => {
  it('keeps the key: the new secret sees its streams, the old one works through the overlap', async () => {
    // The old secret is in the API process's memory before the rotation.
    expect((await streamsOf(original.apikey)).json.data.map((s: any) => s.address)).toEqual([
      address,
    ]);
    const rotated = await rotate(original.id, '1');
    expect(rotated.id).toBe(original.id);
    expect(rotated.apikey).toMatch(/^tg_/);
    expect(rotated.apikey).not.toBe(original.apikey);
    expect(Date.parse(rotated.previous_until!) - Date.now()).toBeGreaterThan(50 * 60_000);
    for (const apikey of [rotated.apikey, original.apikey]) {
      const listed = await streamsOf(apikey);
      expect(listed.status).toBe(200);
      expect(listed.json.data.map((s: any) => s.address)).toEqual([address]);
    }
    // Same key: same webhook secret, same prefix listing replaced by the new secret's.
    const [row] = await db.sql<{ webhook_secret: string; key_prefix: string }[]>`
      select webhook_secret, key_prefix from api_keys where id = ${original.id}`;
    expect(row!.webhook_secret).toBe(original.webhook_secret);
    expect(row!.key_prefix).toBe(rotated.apikey.slice(0, 8));

    // A rotation without overlap: the secret it replaces is refused at once; the one before
    // that (the original) too, since a rotation ends the overlap running.
    const again = await rotate(rotated.apikey.slice(0, 8), '0');
    expect(again.previous_until).toBeNull();
    for (const gone of [rotated.apikey, original.apikey])
      expect(
        (
          await eventually(
            () => streamsOf(gone),
            (r) => r.status === 401,
            5_000,
          )
        ).status,
      ).toBe(401);
    expect((await streamsOf(again.apikey)).json.data.map((s: any) => s.address)).toEqual([address]);
  });

  it('stops accepting the replaced secret when the overlap ends, also from memory', async () => {
    const [row] = await db.sql<{ key_prefix: string }[]>`
      select key_prefix from api_keys where id = ${original.id}`;
    const before = await rotate(row!.key_prefix, '0');
    const rotated = await rotate(original.id, '0.001'); // 3.6 s
    // Used during the overlap (and so remembered by the API process) …
    expect((await streamsOf(before.apikey)).status).toBe(200);
    expect((await streamsOf(before.apikey)).status).toBe(200);
    // … and refused once it is over, with nothing changed in the database meanwhile.
    const refused = await eventually(
      () => streamsOf(before.apikey),
      (r) => r.status === 401,
      15_000,
    );
    expect(refused.status).toBe(401);
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(rotated.previous_until!));
    expect((await streamsOf(rotated.apikey)).status).toBe(200);
  });

  it('refuses a bad overlap and an unknown key with a clear message', async () => {
    const bad = runCli(db.url, ['keys', 'rotate', original.id, '--overlap-hours', 'soon']);
    expect(await bad.exited).toBe(2);
    expect(bad.err()).toMatch(/--overlap-hours/);
    const unknown = runCli(db.url, ['keys', 'rotate', '999999']);
    expect(await unknown.exited).toBe(1);
    expect(unknown.err()).toMatch(/no active key/);
  });
});
