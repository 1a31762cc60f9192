import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { createOperator } from '../src/operators/operators.js';
import { upsertVasp } from '../src/travelrule/vasps.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { call } from './helpers/http.js';
import { MailCatcher } from './helpers/mail.js';
import { freePort } from '../support/ports.js';
import { Receiver } from './helpers/receiver.js';
import { ORIGINATOR_ADDRESS, PERSONAL_VALUES, travelBody } from './helpers/travelrule.js';

/**
 * Personal data never reaches the log. The real appliance runs as `tollgate start` in a child
 * process at log level trace (everything it can say), its stdout and stderr captured; every
 * travel rule flow that touches personal data runs through it, including refused requests that
 * carry personal data; then the captured log is searched for every personal value.
 */

const BOOTSTRAP_KEY = 'tg_logs_test_bootstrap_key_0123456789';
const VASP = '7e57a1b2-0000-4000-8000-0000000000e1';
/** A TRP peer that refuses every inquiry echoing its persons, as validating peers often do. */
const ECHOING_VASP = '7e57a1b2-0000-4000-8000-0000000000e2';
let echoing: Server;
let db: TestDatabase;
let child: ReturnType<typeof spawn>;
let output = '';
let baseUrl = '';
const mail = new MailCatcher();
const hooks = new Receiver();
const reviewer = { authorization: '' };

beforeAll(async () => {
  db = await freshDatabase();
  await mail.start();
  await hooks.start();
  const op = await createOperator(db.sql, 'log.reviewer', 'reviewer');
  reviewer.authorization = 'Basic ' + Buffer.from(`${op.login}:${op.password}`).toString('base64');
  await upsertVasp(
    db.sql,
    {
      uid: VASP,
      name: 'Mail Desk VASP',
      website: 'https://mail-desk.example',
      email: 'desk@mail-desk.example',
    },
    'cli',
  );
  // 503 with the echo first (retried), then 422 with it (given up).
  let answered = 0;
  echoing = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const names = [...body.matchAll(/"primaryIdentifier":"([^"]+)"/g)].map((m) => m[1]).join(' ');
    const status = answered++ === 0 ? 503 : 422;
    res
      .writeHead(status, {
        'content-type': 'application/json',
        'api-version': '3.1.0',
        'request-identifier': String(req.headers['request-identifier'] ?? ''),
        ...(status === 503 ? { 'retry-after': '1' } : {}),
      })
      .end(
        JSON.stringify({ code: status, message: `cannot take ${names}: ${body.slice(0, 150)}` }),
      );
  });
  await new Promise<void>((r) => echoing.listen(0, '127.0.0.1', r));
  await upsertVasp(
    db.sql,
    {
      uid: ECHOING_VASP,
      name: 'Echoing VASP',
      website: 'https://echoing.example',
      trp_endpoint: `http://127.0.0.1:${(echoing.address() as AddressInfo).port}/inquiry`,
    },
    'cli',
  );
  const port = await freePort();
  baseUrl = `https://127.0.0.1:${port}`;
  child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'start'], {
    env: {
      PATH: process.env.PATH!,
      HOME: process.env.HOME ?? '/tmp',
      DATABASE_URL: db.url,
      TOLLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'tollgate-logs-')),
      TOLLGATE_HOST: '127.0.0.1',
      TOLLGATE_PORT: String(port),
      TOLLGATE_RPC_ETH: inject('rpcUrl'),
      TOLLGATE_START_BLOCK_ETH: 'head',
      // The reviewer uses the operator API with basic auth (no second factor).
      TOLLGATE_MFA_REQUIRED_ROLES: '',
      TOLLGATE_LOG_LEVEL: 'trace',
      TOLLGATE_BOOTSTRAP_API_KEY: BOOTSTRAP_KEY,
      TOLLGATE_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
      TOLLGATE_TRP_ALLOW_CIDRS: '127.0.0.0/8',
      TOLLGATE_TRAVEL_RULE_ALLOW_HTTP_LOOPBACK: 'true',
      TOLLGATE_SMTP_URL: mail.url,
      TOLLGATE_TRAVEL_RULE_PUBLIC_URL: baseUrl,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const up = await eventually(
    async () => (await call(baseUrl, 'GET', '/healthz').catch(() => ({ status: 0 }))).status,
    (s) => s === 200,
    60_000,
  );
  expect(up).toBe(200);
  // The bootstrap key exists before the API listens: usable as soon as /healthz answers.
  const keyed = await call(baseUrl, 'GET', '/v2/stream/list?page=1&limit=1', {
    headers: { apikey: BOOTSTRAP_KEY },
  });
  expect(keyed.status).toBe(200);
}, 90_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
  }
  await mail.stop();
  await hooks.stop();
  await new Promise((r) => echoing?.close(r));
  await db?.drop();
});

const api = (method: string, path: string, body?: object) =>
  call(baseUrl, method, `/v2${path}`, {
    headers: { apikey: BOOTSTRAP_KEY },
    ...(body ? { body } : {}),
  });

describe('the log of a real appliance', () => {
  it('holds no name, birth date, identifier or address after every travel rule flow', async () => {
    expect((await api('POST', '/travelrule/webhook', { url: hooks.url })).json.code).toBe(0);
    // Refused requests that carry personal data.
    const bad = travelBody('logs-bad');
    bad.originator.persons[0].naturalPerson.dateAndPlaceOfBirth.dateOfBirth = '1961-13-40';
    expect((await api('POST', '/travelrule/create_tx', bad)).status).toBe(400);
    expect(
      (
        await call(baseUrl, 'POST', '/v2/travelrule/create_tx', {
          headers: { apikey: BOOTSTRAP_KEY },
          body: '{"originator": {"persons": [{"naturalPerson": {"name": "Quennellworth"',
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await call(baseUrl, 'POST', '/trp/v3/inquiries/not-a-known-token-at-all', {
          headers: {
            'api-version': '3.1.0',
            'request-identifier': '8a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
          },
          body: {
            asset: { slip0044: 60 },
            amount: '1',
            callback: 'https://x.example/cb',
            IVMS101: {
              originator: {
                originatorPersons: [
                  {
                    naturalPerson: {
                      name: {
                        nameIdentifier: [
                          { primaryIdentifier: 'Quennellworth', nameIdentifierType: 'LEGL' },
                        ],
                      },
                    },
                  },
                ],
                accountNumber: [ORIGINATOR_ADDRESS],
              },
            },
          },
        })
      ).status,
    ).toBeGreaterThanOrEqual(400);

    // The e-mail flow, end to end: create, read by an operator, accept, view, answer, hash.
    expect(
      (
        await api(
          'POST',
          '/travelrule/create_tx',
          travelBody('logs-1', { beneficiary_vasp_id: VASP }),
        )
      ).json.data,
    ).toBe('PENDING');
    expect(
      (
        await api(
          'POST',
          '/travelrule/receive_tx_without_protocol',
          travelBody('logs-dep', {
            transaction_hash: '0x' + 'ee'.repeat(32),
            created_at: '2026-11-20T09:00:00Z',
          }),
        )
      ).json.data,
    ).toBe('APPROVED');
    const [row] = await db.sql<
      { id: string }[]
    >`select id from travelrule_transactions where transaction_ref = 'logs-1'`;
    const id = row!.id;
    expect(
      (await call(baseUrl, 'GET', `/ops/travelrule/transactions/${id}`, { headers: reviewer })).json
        .data.ivms101,
    ).toBeDefined();
    expect(
      (
        await call(baseUrl, 'POST', `/ops/travelrule/transactions/${id}/accept`, {
          headers: reviewer,
          body: {},
        })
      ).status,
    ).toBe(200);
    const [first] = await mail.waitFor(1);
    const link = new URL(
      /https:\/\/\S+\/v2\/travelrule\/transaction\/[0-9a-f-]{36}\?q=[^\s"<]+/.exec(first!.text)![0],
    );
    expect((await call(baseUrl, 'GET', link.pathname + link.search)).text).toContain(
      'Quennellworth',
    );
    expect(
      (
        await call(baseUrl, 'POST', `/ops/travelrule/transactions/${id}/answer`, {
          headers: reviewer,
          body: { approved: true },
        })
      ).status,
    ).toBe(200);
    await hooks.waitFor((all) => all.some((r) => r.json?.status === 'OTHER_VASP_APPROVED'));
    expect(
      (
        await api('POST', '/travelrule/send_tx_hash', {
          transaction_ref: 'logs-1',
          transaction_hash: '0x' + 'ef'.repeat(32),
        })
      ).json.code,
    ).toBe(0);
    await mail.waitFor(2);

    // A TRP peer whose refusals echo the persons: its words go to the transfer's record, not
    // to the log (found by an outside probe: the log had the names, once per attempt).
    expect(
      (
        await api(
          'POST',
          '/travelrule/create_tx',
          travelBody('logs-echo', { beneficiary_vasp_id: ECHOING_VASP }),
        )
      ).json.data,
    ).toBe('PENDING');
    const [echo] = await db.sql<
      { id: string }[]
    >`select id from travelrule_transactions where transaction_ref = 'logs-echo'`;
    await call(baseUrl, 'POST', `/ops/travelrule/transactions/${echo!.id}/accept`, {
      headers: reviewer,
      body: {},
    });
    const refused = await eventually(
      async () => (await api('GET', '/travelrule/tx_status?transaction_ref=logs-echo')).json.data,
      (d) => d?.status === 'OTHER_VASP_REJECTED',
      30_000,
    );
    expect(refused.messages[0]).toMatchObject({ status: 'failed', last_status: 422, attempts: 2 });
    expect(refused.counterparty_reason).toMatch(
      /^the inquiry did not reach the beneficiary VASP: HTTP 422: peer answered 422: cannot take /,
    );

    child.kill('SIGTERM');
    expect(await new Promise((r) => child.once('exit', r))).toBe(0);

    // The log said what happened…
    expect(output).toContain('travel rule transaction created');
    expect(output).toContain('travel rule message sent');
    expect(output).toContain("peer answered 422 (its words are in the transfer's record)");
    expect(output).toContain('operator read travel rule personal data');
    expect(output).toContain('webhook delivered');
    // …and none of whom it happened to.
    for (const value of PERSONAL_VALUES)
      expect(output, `"${value}" in the log`).not.toContain(value);
    expect(output).not.toContain(BOOTSTRAP_KEY);
    expect(output).not.toMatch(/\/trp\/v3\/inquiries\/not-a-known-token-at-all/);
  });
});
