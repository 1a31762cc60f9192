import { readFileSync } from 'node:fs';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tollgateClient } from '../client/index.js';
import { createApiKey } from '../src/keys/keys.js';
import { CLIENT_DIR, clientFiles } from '../support/generate-client.js';
import { API_ONLY, startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { documentValidator } from './helpers/openapi.js';
import { randomAddress } from './helpers/chain.js';
import { Receiver } from './helpers/receiver.js';

/**
 * The typed client in client/: its generated files are what the routes' schemas give today, the
 * document an appliance serves is the one it was generated from, and it works end to end
 * against a real appliance (typed requests, typed answers and typed errors).
 */

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let apikey: string;
const hooks = new Receiver();

/** The client's fetch: undici's, accepting the test appliance's self-signed certificate. */
const insecure = new Agent({ connect: { rejectUnauthorized: false } });
const testFetch = async (request: Request): Promise<Response> =>
  (await undiciFetch(request.url, {
    method: request.method,
    headers: [...request.headers],
    body: request.body ? await request.text() : undefined,
    dispatcher: insecure,
  })) as unknown as Response;

beforeAll(async () => {
  db = await freshDatabase();
  await hooks.start();
  apikey = (await createApiKey(db.sql, 'client')).apikey;
  app = await startTestAppliance(db.url, {}, API_ONLY);
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await hooks.stop();
  await db?.drop();
});

describe('the generated files', () => {
  it('are current: client/openapi.json and client/schema.d.ts are what `npm run client` writes now', async () => {
    const now = await clientFiles();
    for (const [name, text] of Object.entries(now))
      expect(
        readFileSync(CLIENT_DIR + name, 'utf8') === text,
        `client/${name} is stale: run npm run client and commit it`,
      ).toBe(true);
  });

  it('client/openapi.json is the document the appliance serves', async () => {
    const served = await call(app.baseUrl, 'GET', '/v2/openapi.json', { headers: { apikey } });
    expect(served.json).toEqual(JSON.parse(readFileSync(`${CLIENT_DIR}openapi.json`, 'utf8')));
  });
});

describe('the typed client against a real appliance', () => {
  const client = () => tollgateClient({ baseUrl: app.baseUrl, apikey, fetch: testFetch });

  it('creates, lists and deletes a stream; the answers are the documented ones', async () => {
    const tollgate = client();
    const validate = documentValidator(
      JSON.parse(readFileSync(`${CLIENT_DIR}openapi.json`, 'utf8')),
    );
    const address = randomAddress();
    const created = await tollgate.POST('/stream/create', {
      body: { address, webhook: hooks.url },
    });
    expect(created.error).toBeUndefined();
    expect(created.data?.code).toBe(0);

    const listed = await tollgate.GET('/stream/list', {
      params: { query: { page: 1, limit: 10 } },
    });
    expect(listed.error).toBeUndefined();
    // Typed: data.data is StreamRecord[] and page_count a number.
    const records = listed.data!.data;
    expect(records.map((r) => r.address)).toContain(address.toLowerCase());
    expect(listed.data!.page_count).toBe(1);
    expect(validate.response('get', '/stream/list', listed.data)).toEqual([]);

    const deleted = await tollgate.DELETE('/stream/delete', { params: { query: { address } } });
    expect(deleted.error).toBeUndefined();
    const after = await tollgate.GET('/stream/list', {});
    expect(after.data!.data.map((r) => r.address)).not.toContain(address.toLowerCase());
  });

  it('gives refusals as the typed error body', async () => {
    const refused = await client().POST('/stream/create', {
      body: { address: 'not-an-address', webhook: hooks.url },
    });
    expect(refused.response.status).toBe(400);
    expect(refused.data).toBeUndefined();
    expect(refused.error).toMatchObject({ code: 5002, status: 5002 });

    const unknownKey = tollgateClient({
      baseUrl: app.baseUrl,
      apikey: 'tg_unknown',
      fetch: testFetch,
    });
    const denied = await unknownKey.GET('/stream/list', {});
    expect(denied.response.status).toBe(401);
    expect(denied.error).toMatchObject({ code: 4010, message: 'Invalid API key.' });
  });
});
