import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { decodeTravelAddress } from '../src/travelrule/trp/travel-address.js';
import { upsertVasp } from '../src/travelrule/vasps.js';
import { startTestAppliance } from './helpers/appliance.js';
import { mutualTlsTrpListener, selfSignedLoopback } from './helpers/certs.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { BENEFICIARY_ADDRESS, PERSONAL_VALUES, travelBody } from './helpers/travelrule.js';
import { inquiryText, naturalPerson, trpSend, type InquiryParts } from './helpers/trp-peer.js';

/**
 * An originator VASP (written from the protocol: helpers/trp-peer.ts) sending inquiries to a real
 * appliance's mutual-TLS TRP listener, its certificate pinned in the directory, so that its
 * inquiries to the directory inquiry URL and to a Travel Address are known as one sender's.
 * A request-identifier names one transfer: sent again unchanged (a retry) it is answered as the
 * first time and stored once; sent again with other content it is refused (409), naming what
 * differs and nothing of its values. Contradictory assets and zero amounts are refused (400).
 */

const PEER_UID = '6f6f6f6f-0000-4000-8000-000000000001';
const INBOUND_TOKEN = 'reuse-peer-inbound-token-0123456789abcdef';
const CALLBACK = 'https://originator.example/trp/v3/resolutions/cb-0123456789abcdef';

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let trpBase: string;
let key: { id: string; apikey: string };
let peerCert: { cert: string; key: string; fingerprint: string };

const parties = travelBody('ignored');
const base: InquiryParts = {
  asset: { slip0044: 60 },
  amount: '1.25',
  callback: CALLBACK,
  originatorPersons: parties.originator.persons,
  originatorAccounts: parties.originator.accountNumber,
  beneficiaryPersons: parties.beneficiary.persons,
  beneficiaryAccounts: parties.beneficiary.accountNumber,
};

/** An inquiry for `base` with `change`, to the directory inquiry URL (or `path`). */
const send = (requestId: string, change: Partial<InquiryParts> = {}, path?: string) =>
  trpSend(
    trpBase,
    path ?? `/trp/v3/inquiries/${INBOUND_TOKEN}`,
    inquiryText({ ...base, ...change }),
    {
      requestId,
      clientCert: peerCert,
    },
  );

async function rows(requestId: string) {
  return db.sql<
    { amount: string; asset: string; network: string; counterparty_callback: string }[]
  >`
    select amount::text, asset, network, counterparty_callback
    from travelrule_transactions where transaction_ref = ${`trp-${requestId}`}`;
}

function noPersonalData(message: string): void {
  for (const value of PERSONAL_VALUES) expect(message).not.toContain(value);
  expect(message.toLowerCase()).not.toContain(BENEFICIARY_ADDRESS.toLowerCase());
}

beforeAll(async () => {
  db = await freshDatabase();
  key = await createApiKey(db.sql, 'backend');
  peerCert = await selfSignedLoopback('reuse-originator.test');
  await upsertVasp(
    db.sql,
    {
      uid: PEER_UID,
      name: 'Reusing Originator AG',
      website: 'https://originator.example',
      trp_endpoint: 'https://originator.example/trp/inquiry',
      inbound_token: INBOUND_TOKEN,
      trp_tls_fingerprints: [peerCert.fingerprint],
    },
    'cli',
  );
  const listener = await mutualTlsTrpListener('trp-reuse-');
  trpBase = listener.trpBase;
  app = await startTestAppliance(
    db.url,
    {
      ...listener.env,
    },
    { api: true, worker: false, indexer: false, devChain: false },
  );
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await db?.drop();
});

describe('a request-identifier used again', () => {
  it('unchanged (a retry after a timeout): answered as the first time, stored once', async () => {
    const first = await send('reuse-same');
    expect([first.status, first.json]).toEqual([200, { version: '3.1.0' }]);
    // The same inquiry; its asset named by DTI instead of coin type; its amount with a zero more.
    for (const change of [{}, { asset: { dti: 'X9J9K872S' } }, { amount: '1.250' }]) {
      const again = await send('reuse-same', change);
      expect([again.status, again.json]).toEqual([200, { version: '3.1.0' }]);
      expect(again.headers['request-identifier']).toBe('reuse-same');
    }
    expect(await rows('reuse-same')).toEqual([
      { amount: '1.25', asset: 'ETH', network: 'eth', counterparty_callback: CALLBACK },
    ]);
    const moves = await db.sql`
      select h.to_status from travelrule_history h join travelrule_transactions t on t.id = h.transaction_id
      where t.transaction_ref = 'trp-reuse-same' order by h.id`;
    expect(moves.map((m) => m.to_status)).toEqual(['CREATED', 'SCORE', 'PENDING']);
  });

  it('with another amount, asset, callback, account or party: refused (409) naming what differs, the first kept', async () => {
    expect((await send('reuse-changed')).status).toBe(200);
    const refused = async (change: Partial<InquiryParts>, named: RegExp) => {
      const reply = await send('reuse-changed', change);
      expect([reply.status, reply.json.message]).toEqual([409, expect.anything()]);
      expect(reply.json).toMatchObject({ code: 4090, message: named });
      expect(reply.json.message).toMatch(/^request-identifier already used/);
      expect(reply.headers['request-identifier']).toBe('reuse-changed');
      noPersonalData(reply.json.message);
      return reply.json.message as string;
    };
    expect(await refused({ amount: '2.5' }, /another amount:/)).not.toMatch(/callback|asset/);
    await refused({ callback: `${CALLBACK}-other` }, /another callback:/);
    await refused({ asset: { slip0044: 966 } }, /another asset:/);
    await refused({ amount: '3', callback: `${CALLBACK}-other` }, /another amount, callback:/);
    await refused(
      { beneficiaryAccounts: ['0x' + '34'.repeat(20)] },
      /another IVMS101\.beneficiary\.accountNumber:/,
    );
    await refused(
      {
        originatorPersons: [
          naturalPerson('Someone-Else', 'Entirely', { customerIdentification: 'CUST-0000-0001' }),
        ],
      },
      /another IVMS101\.originator:/,
    );
    expect(await rows('reuse-changed')).toEqual([
      { amount: '1.25', asset: 'ETH', network: 'eth', counterparty_callback: CALLBACK },
    ]);
    // The first content again is still a retry.
    expect((await send('reuse-changed')).status).toBe(200);
  });

  it('first to a Travel Address, then to the inquiry URL with another beneficiary account: refused', async () => {
    const issued = (
      await call(app.baseUrl, 'POST', '/v2/travelrule/travel_address', {
        headers: { apikey: key.apikey },
        body: { network: 'eth', address: BENEFICIARY_ADDRESS },
      })
    ).json.data;
    const target = decodeTravelAddress(issued.travel_address);
    if (!target.ok) throw new Error(target.reason);
    const taPath = `${target.url.pathname}${target.url.search}`;
    const first = await send('reuse-ta', { beneficiaryAccounts: undefined }, taPath);
    expect([first.status, first.json]).toEqual([200, { version: '3.1.0' }]);
    const other = await send('reuse-ta', { beneficiaryAccounts: ['0x' + '56'.repeat(20)] });
    expect(other.status).toBe(409);
    expect(other.json.message).toMatch(/another IVMS101\.beneficiary\.accountNumber:/);
    noPersonalData(other.json.message);
    // The same account as the Travel Address's, to either URL: the same transfer.
    expect((await send('reuse-ta', { beneficiaryAccounts: [BENEFICIARY_ADDRESS] })).status).toBe(
      200,
    );
    expect((await send('reuse-ta', { beneficiaryAccounts: undefined }, taPath)).status).toBe(200);
    expect(await rows('reuse-ta')).toHaveLength(1);
  });
});

describe('an inquiry that cannot be a transfer', () => {
  it('refuses an asset whose slip0044 and dti name different assets (400), storing nothing', async () => {
    for (const asset of [
      { slip0044: 60, dti: '4H95J0R2X' },
      { slip0044: 0, dti: 'X9J9K872S' },
      { slip0044: 'BTC', dti: 'X9J9K872S' },
    ]) {
      const reply = await send('bad-asset', { asset });
      expect(reply.status).toBe(400);
      expect(reply.json.message).toMatch(/^asset: asset\.slip0044 and asset\.dti disagree/);
    }
    // Both naming the same asset is one asset.
    expect(
      (await send('agreeing-asset', { asset: { slip0044: 60, dti: 'X9J9K872S' } })).status,
    ).toBe(200);
    expect(await rows('bad-asset')).toHaveLength(0);
  });

  it('refuses an amount of 0 however written (400), storing nothing', async () => {
    for (const amount of ['0', '0.000', '-0', '0e3', '-0.0']) {
      const reply = await send('zero-amount', { amount });
      expect(reply.status).toBe(400);
      expect(reply.json.message).toBe('amount: must be greater than 0');
    }
    expect(await rows('zero-amount')).toHaveLength(0);
  });
});
