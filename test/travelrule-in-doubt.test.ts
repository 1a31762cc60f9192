import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RetryableError } from '../src/errors.js';
import { createApiKey } from '../src/keys/keys.js';
import { createOperator } from '../src/operators/operators.js';
import {
  composeInquiryEmail,
  createMailer,
  MailInDoubtError,
} from '../src/travelrule/sending/email.js';
import { upsertVasp } from '../src/travelrule/vasps.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { call } from './helpers/http.js';
import { cuttingRelay } from './helpers/smtp-relays.js';
import { travelBody } from './helpers/travelrule.js';

/**
 * An e-mail to the other VASP whose relay's reply was lost: sent whole (the relay may have it),
 * or cut before any of it went. A relay written from RFC 5321 (helpers/smtp-relays.ts) that
 * loses the connection at either stage; the real mailer, and a real appliance (API and worker)
 * with a real Postgres.
 */

const sample = {
  to: 'compliance@other-vasp.example',
  fromVasp: 'Acme',
  toVasp: 'Other VASP',
  transactionRef: 'WD-IN-DOUBT-1',
  asset: 'ETH',
  network: 'eth',
  amount: '1.5',
  link: 'https://tollgate.acme.example/travelrule/view/1?token=abc',
  expiresAt: new Date('2026-12-01T00:00:00Z'),
};

describe('a mail whose relay never replied', () => {
  it('is in doubt when it went out whole: the relay may have it', async () => {
    const relay = await cuttingRelay('end-of-data');
    const m = createMailer({
      smtp_url: relay.url,
      smtp_from: 'Acme <tr@acme.example>',
      smtp_tls_insecure: false,
    })!;
    try {
      const err = await m.send(composeInquiryEmail(sample)).catch((e: unknown) => e);
      expect(relay.seen).toContain('<data>');
      expect(err).toBeInstanceOf(MailInDoubtError);
      expect(err).toBeInstanceOf(RetryableError);
      expect((err as Error).message).toMatch(
        /; the mail went out whole and the relay's answer was lost: the relay may have it$/,
      );
      expect((err as Error).message).not.toContain(sample.link);
    } finally {
      m.close();
      await relay.close();
    }
  });

  it('is not in doubt when the connection was lost before the message went', async () => {
    const relay = await cuttingRelay('RCPT');
    const m = createMailer({
      smtp_url: relay.url,
      smtp_from: 'Acme <tr@acme.example>',
      smtp_tls_insecure: false,
    })!;
    try {
      const err = await m.send(composeInquiryEmail(sample)).catch((e: unknown) => e);
      expect(relay.seen).toContain('RCPT');
      expect(relay.seen).not.toContain('<data>');
      expect(err).toBeInstanceOf(RetryableError);
      expect(err).not.toBeInstanceOf(MailInDoubtError);
    } finally {
      m.close();
      await relay.close();
    }
  });
});

/**
 * A real appliance (API and worker, no indexer) on a fresh database that knows one other VASP,
 * with a backend API key and a reviewer: `create` files a withdrawal to that VASP, `ops` is the
 * reviewer's action on it, `status` its tx_status.
 */
async function applianceWith(vasp: Parameters<typeof upsertVasp>[1], env: Record<string, string>) {
  const db = await freshDatabase();
  const apikey = (await createApiKey(db.sql, 'backend')).apikey;
  const r = await createOperator(db.sql, 'rita.reviewer', 'reviewer');
  const reviewer = {
    authorization: 'Basic ' + Buffer.from(`${r.login}:${r.password}`).toString('base64'),
  };
  await upsertVasp(db.sql, vasp, 'cli');
  const app = await startTestAppliance(db.url, env, {
    api: true,
    worker: true,
    indexer: false,
    devChain: false,
  });
  const api = (method: string, path: string, body?: object) =>
    call(app.baseUrl, method, `/v2${path}`, { headers: { apikey }, ...(body ? { body } : {}) });
  return {
    db,
    create: (ref: string) =>
      api('POST', '/travelrule/create_tx', travelBody(ref, { beneficiary_vasp_id: vasp.uid })),
    /** The reviewer's `action` on the withdrawal `ref`. */
    ops: async (ref: string, action: string, body: object = {}) => {
      const [row] = await db.sql<{ id: string }[]>`
        select id from travelrule_transactions where transaction_ref = ${ref}`;
      return call(app.baseUrl, 'POST', `/ops/travelrule/transactions/${row!.id}/${action}`, {
        headers: reviewer,
        body,
      });
    },
    status: (ref: string) =>
      api('GET', `/travelrule/tx_status?transaction_ref=${ref}`).then((r) => r.json.data),
    async stop() {
      await app.stop();
      await db.drop();
    },
  };
}

describe('a transfer that moves on while its e-mail is in doubt', () => {
  let relay: Awaited<ReturnType<typeof cuttingRelay>>;
  let appliance: Awaited<ReturnType<typeof applianceWith>>;

  beforeAll(async () => {
    relay = await cuttingRelay('end-of-data');
    appliance = await applianceWith(
      {
        uid: '6f1c1f0e-7a41-4c55-9d7e-2b7f4f0f0a99',
        name: 'Mail Only Exchange',
        website: 'https://mail-only.example',
        email: 'compliance@mail-only.example',
      },
      { TOLLGATE_SMTP_URL: relay.url },
    );
  }, 60_000);

  afterAll(async () => {
    await appliance?.stop();
    await relay?.close();
  });

  it('records it "not sent again", saying the other VASP may have it, not "not sent"', async () => {
    const ref = 'wd-mail-in-doubt';
    const { create, ops } = appliance;
    const status = () => appliance.status(ref);
    expect((await create(ref)).status).toBe(200);
    expect((await ops(ref, 'accept')).json.data).toEqual({ status: 'OTHER_VASP_PENDING' });
    // Sent whole, its reply lost: pending, and said so.
    const pending = await eventually(status, (s) => s.messages[0]?.attempts >= 1, 30_000);
    expect(pending.messages[0]).toMatchObject({ kind: 'email_inquiry', status: 'pending' });
    expect(pending.messages[0].last_error).toMatch(/the relay may have it$/);
    // The other VASP answers (by e-mail, by phone): an operator records it. The next attempt
    // finds the transfer moved on.
    expect((await ops(ref, 'answer', { rejected: 'unknown customer' })).json.data).toEqual({
      status: 'OTHER_VASP_REJECTED',
    });
    const settled = await eventually(status, (s) => s.messages[0]?.status !== 'pending', 30_000);
    expect(settled.messages[0]).toMatchObject({ kind: 'email_inquiry', status: 'cancelled' });
    expect(settled.messages[0].last_error).toMatch(
      /^not sent again: the transaction is OTHER_VASP_REJECTED; an attempt at \S+Z went out whole and its answer was lost: the other VASP may have it$/,
    );
  });
});

describe('an inquiry never answered until the attempts run out', () => {
  let peer: Server;
  let appliance: Awaited<ReturnType<typeof applianceWith>>;

  beforeAll(async () => {
    // A beneficiary's TRP server that reads every request whole and never answers.
    peer = createServer((socket) => {
      socket.on('error', () => {});
      socket.resume();
    });
    await new Promise<void>((r) => peer.listen(0, '127.0.0.1', r));
    appliance = await applianceWith(
      {
        uid: '6f1c1f0e-7a41-4c55-9d7e-2b7f4f0f0a98',
        name: 'Stalling Exchange',
        website: 'https://stalling.example',
        trp_endpoint: `http://127.0.0.1:${(peer.address() as AddressInfo).port}/inquiry`,
      },
      { TOLLGATE_TRP_TIMEOUT_MS: '1000', TOLLGATE_WEBHOOK_MAX_ATTEMPTS: '2' },
    );
  }, 60_000);

  afterAll(async () => {
    await appliance?.stop();
    await new Promise((r) => peer?.close(r));
  });

  it('ends the withdrawal saying the beneficiary may have the inquiry, not that it did not reach it', async () => {
    const ref = 'wd-never-answered';
    expect((await appliance.create(ref)).status).toBe(200);
    expect((await appliance.ops(ref, 'accept')).json.data).toEqual({
      status: 'OTHER_VASP_PENDING',
    });
    const ended = await eventually(
      () => appliance.status(ref),
      (s) => s.status === 'OTHER_VASP_REJECTED',
      30_000,
    );
    expect(ended.messages).toMatchObject([{ kind: 'trp_inquiry', status: 'failed', attempts: 2 }]);
    expect(ended.counterparty_reason).toMatch(
      /^no answer to the inquiry from the beneficiary VASP, which may have it \(an attempt at \S+Z went out whole and its answer was lost\); the last attempt: ETIMEDOUT: no response within 1000 ms$/,
    );
  });
});
