import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { createApiKey } from '../../src/keys/keys.js';
import { type KeyAndCertificate, makeDevCa, makeDevCertificate } from '../../src/net/tls-certs.js';
import { createOperator } from '../../src/operators/operators.js';
import { upsertVasp } from '../../src/travelrule/vasps.js';
import { freePort } from '../../support/ports.js';
import { call, type Reply } from '../helpers/http.js';
import {
  BENEFICIARY_ADDRESS,
  DEPOSIT_CONFIRMED,
  PERSONAL_VALUES,
  travelBody,
  WITHDRAWAL_COMPLETED,
} from '../helpers/travelrule.js';
import { sleep } from './harness.js';
import { ownPostgres, type OwnPostgres } from './own-postgres.js';
import { FaultReceiver } from './receiver.js';
import { RoleProcess } from './roles.js';
import type { Rng } from './seed.js';

/**
 * Two Tollgates exchanging Travel Rule transfers over TRP (mutual TLS, pinned certificates), each
 * with a Postgres of its own, its api role (the API, the operator API and the TRP listener) and its
 * worker role as child processes, and its backend (a webhook receiver that can be taken down).
 * The scenario drives transfers as the two VASPs' backends and compliance teams would, over the
 * API and the operator API, retrying as a careful client does (an answer lost to a fault is not
 * taken for a refusal: it looks at the transfer's status before sending again), while faults hit
 * either side. check() then holds both sides to what the protocol and the spec promise.
 */

/** How long a transfer may take, faults and retries' backoff included. */
const TRANSFER_TIMEOUT_MS = 240_000;
/** How long one HTTP request of the driver may take before it counts as lost. */
const REQUEST_TIMEOUT_MS = 15_000;

export interface Side {
  label: 'A' | 'B';
  name: string;
  uid: string;
  pg: OwnPostgres;
  roles: { api: RoleProcess; worker: RoleProcess };
  api: string;
  key: { id: string; apikey: string; webhook_secret: string };
  operator: { login: string; password: string };
  /** The operator API session token, opened again when it is refused. */
  session?: string;
  backend: FaultReceiver;
  /** The secret tokens of this side's inquiry URL at the other side and the other's here. */
  tokens: string[];
}

type Answer = Reply;

/** One request to a side's API port; throws on no answer (refused, cut, timed out). */
const send = (
  side: Side,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: object,
): Promise<Answer> =>
  call(side.api, method, path, { headers, body, timeoutMs: REQUEST_TIMEOUT_MS });

function writeCertificate(c: KeyAndCertificate): { cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-faults-trp-'));
  writeFileSync(join(dir, 'cert.pem'), c.cert);
  writeFileSync(join(dir, 'key.pem'), c.key, { mode: 0o600 });
  return { cert: join(dir, 'cert.pem'), key: join(dir, 'key.pem') };
}

const VASPS = {
  A: { name: 'Alpha VASP', uid: '0a0a0a0a-0000-4000-8000-00000000000a' },
  B: { name: 'Bravo VASP', uid: '0b0b0b0b-0000-4000-8000-00000000000b' },
} as const;

/** Both sides set up and running, each knowing the other (its TRP URL, token and certificate). */
export async function startTwoSides(): Promise<[Side, Side]> {
  const ports = {
    A: { api: await freePort(), trp: await freePort() },
    B: { api: await freePort(), trp: await freePort() },
  };
  const ca = await makeDevCa();
  const certs = {
    A: await makeDevCertificate(ca, { hosts: ['127.0.0.1'] }),
    B: await makeDevCertificate(ca, { hosts: ['127.0.0.1'] }),
  };
  // The token in X's inquiry URL at the other side.
  const tokenOf = {
    A: randomBytes(32).toString('base64url'),
    B: randomBytes(32).toString('base64url'),
  };
  const make = async (label: 'A' | 'B'): Promise<Side> => {
    const peer = label === 'A' ? 'B' : 'A';
    const pg = await ownPostgres();
    const sql = pg.database!.sql;
    const key = await createApiKey(sql, `backend-${label}`);
    const operator = await createOperator(sql, `compliance.${label.toLowerCase()}`, 'reviewer');
    await upsertVasp(
      sql,
      {
        uid: VASPS[peer].uid,
        name: VASPS[peer].name,
        website: `https://${peer.toLowerCase()}.example`,
        country: 'DE',
        trp_endpoint: `https://127.0.0.1:${ports[peer].trp}/trp/v3/inquiries/${tokenOf[label]}`,
        inbound_token: tokenOf[peer],
        trp_tls_fingerprints: [certs[peer].fingerprint],
      },
      'cli',
    );
    const files = writeCertificate(certs[label]);
    const env = {
      TOLLGATE_HOST: '127.0.0.1',
      TOLLGATE_PORT: String(ports[label].api),
      // Both roles of a side seal and open the same personal data.
      TOLLGATE_DATA_KEY: randomBytes(32).toString('base64'),
      TOLLGATE_TRAVEL_RULE_VASP_NAME: VASPS[label].name,
      TOLLGATE_TRP_PORT: String(ports[label].trp),
      TOLLGATE_TRP_PUBLIC_URL: `https://127.0.0.1:${ports[label].trp}`,
      TOLLGATE_TRP_CLIENT_CERT_FILE: files.cert,
      TOLLGATE_TRP_CLIENT_KEY_FILE: files.key,
      TOLLGATE_TRP_REQUIRE_CLIENT_CERT: 'true',
      TOLLGATE_TRP_ALLOW_CIDRS: '127.0.0.0/8',
      TOLLGATE_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
      TOLLGATE_TRAVEL_RULE_ALLOW_HTTP_LOOPBACK: 'true',
      TOLLGATE_MFA_REQUIRED_ROLES: '',
      TOLLGATE_WEBHOOK_TIMEOUT_MS: '5000',
      // Shorter than some of the stalls faultsUntil makes: a message then goes again while the
      // first is still in the other side's hands.
      TOLLGATE_TRP_TIMEOUT_MS: '2000',
    };
    const url = () => pg.database!.url;
    const side: Side = {
      label,
      ...VASPS[label],
      pg,
      // Each with a health listener: a role is stopped only once it is up (RoleProcess.stop).
      roles: {
        api: new RoleProcess('api', url, {
          ...env,
          TOLLGATE_HEALTH_PORT: String(await freePort()),
        }),
        worker: new RoleProcess('worker', url, {
          ...env,
          TOLLGATE_HEALTH_PORT: String(await freePort()),
        }),
      },
      api: `https://127.0.0.1:${ports[label].api}`,
      key,
      operator,
      backend: await new FaultReceiver().start(),
      tokens: [tokenOf.A, tokenOf.B],
    };
    side.roles.api.start();
    side.roles.worker.start();
    await retrying(side, 'register the travel rule webhook', 60_000, async () => {
      const r = await send(
        side,
        'POST',
        '/v2/travelrule/webhook',
        { apikey: key.apikey },
        { url: side.backend.url },
      );
      return r.status === 200 && r.json?.code === 0;
    });
    return side;
  };
  return [await make('A'), await make('B')];
}

/** Calls `attempt` until it says done, at most `timeoutMs`; no answer at all is one more try. */
async function retrying(
  side: Side,
  what: string,
  timeoutMs: number,
  attempt: () => Promise<boolean>,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await attempt()) return;
    } catch {
      // no answer: the process is down or restarting
    }
    if (Date.now() > deadline)
      throw new Error(`${side.label}: ${what}: not done in ${timeoutMs} ms`);
    await sleep(250);
  }
}

/**
 * What the driver got that a careful client must not get during faults: an answer that is neither
 * success, nor "not now" (503 with Retry-After, 429), nor a refusal explained by an earlier try
 * of the same step having landed after all (its answer lost). E.g. a 500 while the database
 * restarts, a 503 without Retry-After, a body that is not the spec's envelope.
 */
export const unexpected: string[] = [];

function judge(side: Side, what: string, r: Answer): 'ok' | 'later' | 'refused' {
  if (r.status === 200 && r.json?.code === 0) return 'ok';
  if (r.status === 503 || r.status === 429) {
    if (r.json?.code === undefined || typeof r.json?.message !== 'string')
      unexpected.push(
        `${side.label} ${what}: ${r.status} without the error envelope: ${r.text.slice(0, 200)}`,
      );
    return 'later';
  }
  if (r.status >= 500 || typeof r.json?.message !== 'string')
    unexpected.push(`${side.label} ${what}: ${r.status} ${r.text.slice(0, 300)}`);
  return 'refused';
}

/** A request with the side's operator session (opened, or opened again, as needed). */
async function asOperator(
  side: Side,
  method: string,
  path: string,
  body?: object,
): Promise<Answer> {
  if (!side.session) {
    const auth = Buffer.from(`${side.operator.login}:${side.operator.password}`).toString('base64');
    const r = await send(side, 'POST', '/ops/session', { authorization: `Basic ${auth}` });
    if (r.status !== 201) {
      judge(side, 'POST /ops/session', r);
      return r;
    }
    side.session = r.json.data.token as string;
  }
  const r = await send(
    side,
    method,
    `/ops${path}`,
    { authorization: `Bearer ${side.session}` },
    body,
  );
  if (r.status === 401) side.session = undefined;
  return r;
}

const asBackend = (side: Side, method: string, path: string, body?: object) =>
  send(side, method, `/v2${path}`, { apikey: side.key.apikey }, body);

/** A transaction's status as the side's backend reads it (tx_status); undefined: none yet. */
async function statusOf(side: Side, ref: string): Promise<string | undefined> {
  const r = await asBackend(
    side,
    'GET',
    `/travelrule/tx_status?transaction_ref=${encodeURIComponent(ref)}`,
  );
  if (r.status === 200 && r.json?.code === 0) return r.json.data.status as string;
  if (judge(side, 'tx_status', r) === 'later') throw new Error('later');
  return undefined;
}

/**
 * One step of a transfer: sent until it is answered OK, or until the transfer's status shows the
 * step was taken (an earlier try whose answer was lost). A refusal is looked into the same way
 * and otherwise kept in `unexpected` (and tried again, so the scenario ends).
 */
async function step(
  side: Side,
  what: string,
  act: () => Promise<Answer>,
  taken: () => Promise<boolean>,
): Promise<void> {
  const deadline = Date.now() + TRANSFER_TIMEOUT_MS;
  let refusals = 0;
  for (;;) {
    let verdict: 'ok' | 'later' | 'refused' | 'lost' = 'lost';
    let answer: Answer | undefined;
    try {
      answer = await act();
      verdict = judge(side, what, answer);
    } catch {
      verdict = 'lost';
    }
    if (verdict === 'ok') return;
    const done = await taken().catch(() => false);
    if (done) return;
    if (verdict === 'refused' && ++refusals === 3)
      unexpected.push(
        `${side.label} ${what}: refused, and not taken: ${answer?.status} ${answer?.text.slice(0, 300)}`,
      );
    if (Date.now() > deadline) throw new Error(`${side.label} ${what}: not done in time`);
    await sleep(300);
  }
}

/**
 * Waits until `read` gives a value, asking again after failures (no answer, 503), for
 * TRANSFER_TIMEOUT_MS, or longer while `promised` names a later moment: what the transfer waits
 * for is then a message or webhook in its backoff (e^attempts s, README), due at that moment. A
 * transfer whose messages were refused a few times in a row waits minutes for its next attempt,
 * as the product promises; one with nothing due (a message or webhook lost) fails at the deadline.
 */
async function waitFor<T>(
  what: string,
  read: () => Promise<T | undefined>,
  promised?: () => Promise<Date | undefined>,
): Promise<T> {
  let deadline = Date.now() + TRANSFER_TIMEOUT_MS;
  let extended = false;
  for (;;) {
    const v = await read().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) {
      let due: Date | undefined;
      try {
        due = await promised?.();
      } catch (err) {
        // A side's Postgres restarting as the time ran out: asked again, for a while.
        if (Date.now() < deadline + DUE_GRACE_MS) {
          await sleep(1000);
          continue;
        }
        throw new Error(
          `${what}: not within ${TRANSFER_TIMEOUT_MS} ms, and what is due could not be read: ${(err as Error).message}`,
        );
      }
      if (due === undefined || due.getTime() + DUE_GRACE_MS < Date.now())
        throw new Error(
          `${what}: not within ${TRANSFER_TIMEOUT_MS} ms${extended ? `, nor within ${DUE_GRACE_MS} ms of the last attempt due` : ''}`,
        );
      deadline = due.getTime() + DUE_GRACE_MS;
      extended = true;
    }
    await sleep(250);
  }
}

/**
 * How long after its due moment an attempt may take to be made and answered: a worker's poll,
 * a dead worker's jobs unlocked (stale-locks.ts: every 5 s, after 3 s), a role started again, the
 * TRP timeout.
 */
const DUE_GRACE_MS = 60_000;

/** The (side, its reference) pairs of a transfer, for the side that has one yet. */
function refsOf(t: Transfer): [Side, string][] {
  const pairs: [Side, string | undefined][] = [
    [t.from, t.ref],
    [t.to, t.theirRef],
  ];
  return pairs.filter((p): p is [Side, string] => p[1] !== undefined);
}

/**
 * The latest moment at which a side is due to try again at something still pending: a message to
 * the other VASP (its job's run_at) or a webhook to its backend (next_attempt_at; a held one is due
 * never), of the transaction `ref` or, without one, of any. Undefined when nothing is pending.
 */
async function dueOn(side: Side, ref?: string): Promise<Date | undefined> {
  const sql = side.pg.database!.sql;
  const ofRef = ref === undefined ? sql`true` : sql`t.transaction_ref = ${ref}`;
  const [row] = await sql<{ at: Date | null }[]>`
    select max(at) as at from (
      select j.run_at as at
      from travelrule_transactions t
      join travelrule_messages m on m.transaction_id = t.id and m.status = 'pending'
      join graphile_worker.jobs j on j.key = 'trm:' || m.id
      where ${ofRef}
      union all
      select e.next_attempt_at
      from webhook_events e
      left join travelrule_transactions t on t.id = e.travelrule_id
      where e.status = 'pending' and e.next_attempt_at < 'infinity' and ${ofRef}
    ) due`;
  return row?.at ?? undefined;
}

/** The later of the two sides' moments due for this transfer (dueOn). */
async function dueOf(t: Transfer): Promise<Date | undefined> {
  let latest: Date | undefined;
  for (const [side, ref] of refsOf(t)) {
    const at = await dueOn(side, ref);
    if (at && (!latest || at > latest)) latest = at;
  }
  return latest;
}

const delivered = (t: Transfer, side: Side, ref: string, status: string) =>
  waitFor(
    `${side.label}'s backend: ${status} of ${ref}`,
    async () =>
      side.backend.received.some(
        (d) => d.json?.transaction_ref === ref && d.json?.status === status,
      )
        ? true
        : undefined,
    () => dueOf(t),
  );

export interface Transfer {
  from: Side;
  to: Side;
  ref: string;
  accept: boolean;
  txid: string;
  /** The originator's transaction id (the transfer's TRP request-identifier). */
  id?: string;
  /** The beneficiary side's reference for it. */
  theirRef?: string;
}

/** The id of the transaction `ref` in the side's operator list of one direction; undefined: not listed (yet). */
async function listedId(
  side: Side,
  direction: 'incoming' | 'outgoing',
  ref: string,
): Promise<string | undefined> {
  const r = await asOperator(
    side,
    'GET',
    `/travelrule/transactions?direction=${direction}&limit=100`,
  );
  return (r.json?.data as { id: string; transaction_ref: string }[] | undefined)?.find(
    (x) => x.transaction_ref === ref,
  )?.id;
}

const among = (statuses: string[]) => (s: string | undefined) =>
  s !== undefined && statuses.includes(s);

/**
 * One transfer end to end, as the two VASPs' people and backends would take it: the originator's
 * backend creates it, its operator accepts, the inquiry goes over TRP; the beneficiary's operator
 * accepts (its backend gives the deposit address when asked by webhook, the originator's backend
 * sends the hash when told of the approval by webhook) or rejects. `pause` draws the moments
 * people and backends take between steps.
 */
export async function runTransfer(t: Transfer, pause: () => Promise<void>): Promise<void> {
  const { from, to, ref } = t;
  await step(
    from,
    `create_tx ${ref}`,
    () =>
      asBackend(
        from,
        'POST',
        '/travelrule/create_tx',
        travelBody(ref, { beneficiary_vasp_id: to.uid }),
      ),
    async () => (await statusOf(from, ref)) !== undefined,
  );
  await pause();
  t.id = await waitFor(`${from.label}: the id of ${ref}`, () => listedId(from, 'outgoing', ref));
  await step(
    from,
    `accept ${ref}`,
    () => asOperator(from, 'POST', `/travelrule/transactions/${t.id}/accept`, {}),
    async () => (await statusOf(from, ref)) !== 'PENDING',
  );
  t.theirRef = `trp-${t.id}`;
  const theirRef = t.theirRef;
  const theirId = await waitFor(
    `${to.label}: the inquiry of ${ref}`,
    () => listedId(to, 'incoming', theirRef),
    () => dueOf(t),
  );
  await pause();
  if (!t.accept) {
    await step(
      to,
      `reject ${theirRef}`,
      () =>
        asOperator(to, 'POST', `/travelrule/transactions/${theirId}/reject`, {
          reason: 'beneficiary not known to us',
        }),
      async () => (await statusOf(to, theirRef)) === 'REJECTED',
    );
    await delivered(t, from, ref, 'OTHER_VASP_REJECTED');
    return;
  }
  await step(
    to,
    `accept ${theirRef}`,
    () => asOperator(to, 'POST', `/travelrule/transactions/${theirId}/accept`, {}),
    async () => (await statusOf(to, theirRef)) !== 'PENDING',
  );
  await delivered(t, to, theirRef, 'WAITING_ADDRESS_DATA');
  await pause();
  await step(
    to,
    `send_address ${theirRef}`,
    () =>
      asBackend(to, 'POST', '/travelrule/send_address', {
        transaction_ref: theirRef,
        address: BENEFICIARY_ADDRESS,
      }),
    async () =>
      among(['WAITING_FOR_CONFIRMATION', 'TRANSACTION_CONFIRMED'])(await statusOf(to, theirRef)),
  );
  await delivered(t, from, ref, 'OTHER_VASP_APPROVED');
  await pause();
  await step(
    from,
    `send_tx_hash ${ref}`,
    () =>
      asBackend(from, 'POST', '/travelrule/send_tx_hash', {
        transaction_ref: ref,
        transaction_hash: t.txid,
      }),
    async () => (await statusOf(from, ref)) === 'COMPLETED',
  );
  await delivered(t, to, theirRef, 'TRANSACTION_CONFIRMED');
}

/**
 * What both sides hold of a transfer, for the message of a transfer that did not finish in time:
 * each side's row, its messages to the other (attempts, last answer) and their jobs (when the
 * next attempt runs, whether a worker holds it), so that a failed run says where it stood.
 */
export async function describeTransfer(t: Transfer): Promise<string> {
  const lines: string[] = [];
  for (const [side, ref] of refsOf(t)) {
    try {
      const sql = side.pg.database!.sql;
      const rows = await sql<{ id: string; status: string }[]>`
        select id::text, status from travelrule_transactions where transaction_ref = ${ref}`;
      if (rows.length === 0) lines.push(`${side.label}: ${ref} not stored`);
      for (const row of rows) {
        lines.push(`${side.label}: ${ref} (${row.id}) ${row.status}`);
        const messages = await sql<
          {
            id: string;
            kind: string;
            status: string;
            attempts: number;
            last_status: number | null;
            last_error: string | null;
            run_at: Date | null;
            job_attempts: number | null;
            max_attempts: number | null;
            locked_by: string | null;
          }[]
        >`
          select m.id::text, m.kind, m.status, m.attempts, m.last_status, m.last_error,
                 j.run_at, j.attempts as job_attempts, j.max_attempts, j.locked_by
          from travelrule_messages m
          left join graphile_worker.jobs j on j.key = 'trm:' || m.id
          where m.transaction_id = ${row.id} order by m.id`;
        for (const m of messages)
          lines.push(
            `  ${m.kind} ${m.status}, ${m.attempts} attempts, last ${m.last_status ?? '-'} ${m.last_error ?? ''}; job: ${m.run_at ? `runs at ${m.run_at.toISOString()} (now ${new Date().toISOString()}), attempt ${m.job_attempts}/${m.max_attempts}${m.locked_by ? `, locked by ${m.locked_by}` : ''}` : 'none'}`,
          );
      }
    } catch (err) {
      lines.push(`${side.label}: ${ref}: could not read (${(err as Error).message})`);
    }
  }
  return lines.join('\n');
}

/**
 * The most faults one run makes (a run of 16 transfers takes 11-21 at its pace). A transfer the
 * faults held up long waits out its messages' backoff (e^attempts s) without more of them piling
 * on; the next attempt is then the last one it needs.
 */
const FAULTS_AT_MOST = 24;

/**
 * Faults to either side, one every 1-4 s until `done()`, at most FAULTS_AT_MOST, each written to
 * `log` with its time as it is made (for the summary, and for a transfer that did not finish):
 * kill -9 of its api role (the TRP listener and the API) or its worker (which sends the TRP
 * messages and the webhooks), each started again after 0-3 s, the worker's at times while the
 * other side is stalled with its messages; its api role stalled (SIGSTOP) for 1-9 s (past the
 * other's 2 s TRP timeout and its first retry at times, so that attempts pile up and are taken at
 * once); a restart of its Postgres (down 0.5-4 s), at times just as both its roles start again
 * after a kill; its backend down for 1-4 s.
 */
export async function faultsUntil(
  rng: Rng,
  sides: readonly Side[],
  done: () => boolean,
  log: string[],
): Promise<void> {
  const start = Date.now();
  while (!done() && log.length < FAULTS_AT_MOST) {
    await sleep(rng.int(1000, 4000));
    if (done()) break;
    const side = rng.pick(sides);
    const other = sides.find((s) => s !== side)!;
    const kind = rng.pick([
      'kill api',
      'kill worker',
      'kill worker in flight',
      'freeze api',
      'restart postgres',
      'restart postgres as the roles start',
      'backend down',
    ] as const);
    const down = rng.int(0, 3000);
    log.push(`${side.label}: ${kind} (+${((Date.now() - start) / 1000).toFixed(1)} s)`);
    if (kind === 'kill worker in flight') {
      // The other side stalls with this side's messages (if any) in its hands; this side's worker
      // dies before their answers: each was sent, and is sent again.
      const stall = other.roles.api.freeze(rng.int(1000, 4000));
      await sleep(rng.int(300, 900));
      await side.roles.worker.kill();
      await sleep(down);
      side.roles.worker.start();
      await stall;
    } else if (kind === 'freeze api') {
      // Longer than the sender's TRP timeout at times: the message is sent again while the
      // first is still to be answered.
      await side.roles.api.freeze(rng.int(1000, 9000));
    } else if (kind === 'kill api' || kind === 'kill worker') {
      const role = kind === 'kill api' ? side.roles.api : side.roles.worker;
      await role.kill();
      await sleep(down);
      role.start();
    } else if (kind === 'restart postgres as the roles start') {
      // A start that meets its database going away (a host rebooting, Postgres restarted with
      // it): the roles wait for it (TOLLGATE_DATABASE_START_WAIT_S) instead of exiting.
      await Promise.all([side.roles.api.kill(), side.roles.worker.kill()]);
      side.roles.api.start();
      side.roles.worker.start();
      await sleep(rng.int(0, 1500));
      await side.pg.restart(rng.int(500, 4000));
    } else if (kind === 'restart postgres') {
      await side.pg.restart(rng.int(500, 4000));
    } else {
      await side.backend.stop();
      await sleep(rng.int(1000, 4000));
      await side.backend.start();
    }
  }
}

/** A transfer's statuses at the end, and the moves each side recorded, by outcome. */
const EXPECTED = {
  accepted: {
    from: WITHDRAWAL_COMPLETED,
    to: DEPOSIT_CONFIRMED,
    fromMessages: ['trp_inquiry', 'trp_confirmation'],
    toMessages: ['trp_resolution'],
    fromHooks: ['OTHER_VASP_APPROVED'],
    toHooks: ['WAITING_ADDRESS_DATA', 'TRANSACTION_CONFIRMED'],
  },
  rejected: {
    from: ['CREATED', 'SCORE', 'PENDING', 'OTHER_VASP_PENDING', 'OTHER_VASP_REJECTED'],
    to: ['CREATED', 'SCORE', 'PENDING', 'REJECTED'],
    fromMessages: ['trp_inquiry'],
    toMessages: ['trp_resolution'],
    fromHooks: ['OTHER_VASP_REJECTED'],
    toHooks: [] as string[],
  },
};

/**
 * Waits until neither side has a message to the other or a webhook still to send, stops every
 * role (each must exit 0 on SIGTERM, and none may have exited on its own), then checks both sides
 * against what every transfer must have left. Returns the findings (empty: all held) and a summary.
 */
export async function settleAndCheck(
  sides: readonly Side[],
  transfers: readonly Transfer[],
): Promise<{ findings: string[]; summary: string }> {
  for (const s of sides) for (const r of Object.values(s.roles)) if (!r.running) r.start();
  for (const s of sides)
    await waitFor(
      `${s.label}: nothing left to send`,
      async () => {
        const [row] = await s.pg.database!.sql<{ n: number }[]>`
          select (select count(*) from travelrule_messages where status = 'pending')
               + (select count(*) from webhook_events where status = 'pending') as n`;
        return Number(row!.n) === 0 ? true : undefined;
      },
      () => dueOn(s),
    );
  for (const s of sides) await Promise.all(Object.values(s.roles).map((r) => r.stop()));
  const findings: string[] = [...unexpected];
  for (const s of sides)
    for (const r of Object.values(s.roles))
      findings.push(...r.crashes.map((c) => `${s.label}: ${c}`));

  let received = 0;
  let repeated = 0;
  let sentAgain = 0;
  let mostAttempts = 0;
  for (const s of sides) {
    const sql = s.pg.database!.sql;
    const own = transfers.filter((t) => t.from === s);
    const theirs = transfers.filter((t) => t.to === s);
    // Each transfer is stored once on each side: a repeated inquiry is not a second deposit.
    const rows = await sql<
      {
        id: string;
        transaction_ref: string;
        counterparty_ref: string | null;
        direction: string;
        status: string;
      }[]
    >`
      select id, transaction_ref, counterparty_ref, direction, status from travelrule_transactions`;
    if (rows.length !== own.length + theirs.length)
      findings.push(
        `${s.label}: ${rows.length} transactions stored, ${own.length + theirs.length} transfers made`,
      );
    const byRef = new Map(rows.map((r) => [r.transaction_ref, r]));
    const history = await sql<{ transaction_id: string; to_status: string }[]>`
      select transaction_id, to_status from travelrule_history order by id`;
    const messages = await sql<
      { transaction_id: string; kind: string; status: string; last_error: string | null }[]
    >`
      select transaction_id, kind, status, last_error from travelrule_messages order by id`;
    const events = await sql<
      {
        event_id: string;
        travelrule_id: string;
        travelrule_status: string;
        status: string;
        webhook_id: string;
      }[]
    >`
      select id::text as event_id, travelrule_id, travelrule_status, status, 'msg_' || id as webhook_id from webhook_events where kind = 'travelrule' order by created_at, id`;
    const [again] = await sql<{ n: number; most: number }[]>`
      select count(*) filter (where attempts > 1)::int as n, coalesce(max(attempts), 0)::int as most
      from travelrule_messages`;
    sentAgain += again!.n;
    mostAttempts = Math.max(mostAttempts, again!.most);
    const check = (t: Transfer, ref: string, mine: 'from' | 'to') => {
      const want = EXPECTED[t.accept ? 'accepted' : 'rejected'];
      const row = byRef.get(ref);
      if (!row) return findings.push(`${s.label}: ${ref} is not stored`);
      const moves = history.filter((h) => h.transaction_id === row.id).map((h) => h.to_status);
      const expectMoves = want[mine];
      if (moves.join() !== expectMoves.join())
        findings.push(
          `${s.label}: ${ref} moved ${moves.join(' → ')}, expected ${expectMoves.join(' → ')}`,
        );
      const sent = messages.filter((m) => m.transaction_id === row.id);
      const expectSent = mine === 'from' ? want.fromMessages : want.toMessages;
      if (
        sent.map((m) => `${m.kind}:${m.status}`).join() !==
        expectSent.map((k) => `${k}:sent`).join()
      )
        findings.push(
          `${s.label}: ${ref}'s messages ${sent.map((m) => `${m.kind}:${m.status}${m.last_error ? ` (${m.last_error})` : ''}`).join(', ')}, expected ${expectSent.join(', ')} sent`,
        );
      const hooks = events.filter((e) => e.travelrule_id === row.id);
      const expectHooks = mine === 'from' ? want.fromHooks : want.toHooks;
      if (
        hooks.map((e) => `${e.travelrule_status}:${e.status}`).join() !==
        expectHooks.map((h) => `${h}:delivered`).join()
      )
        findings.push(
          `${s.label}: ${ref}'s webhooks ${hooks.map((e) => `${e.travelrule_status}:${e.status}`).join(', ')}, expected ${expectHooks.join(', ')} delivered`,
        );
      return undefined;
    };
    for (const t of own) check(t, t.ref, 'from');
    for (const t of theirs) if (t.theirRef) check(t, t.theirRef, 'to');
    // What the backend received: every event at least once, each webhook-id always with the same
    // body, signed with the key's secret; nothing that is no event of this side.
    const wh = new Webhook(s.key.webhook_secret);
    const bodyOf = new Map<string, string>();
    for (const d of s.backend.received) {
      received++;
      try {
        wh.verify(d.body, d.headers);
      } catch (err) {
        findings.push(
          `${s.label}'s backend: a delivery that does not verify: ${(err as Error).message}`,
        );
      }
      const id = d.headers['webhook-id']!;
      const before = bodyOf.get(id);
      if (before === undefined) bodyOf.set(id, d.body);
      else {
        repeated++;
        if (before !== d.body)
          findings.push(`${s.label}'s backend: webhook-id ${id} came with two bodies`);
      }
    }
    for (const e of events)
      if (!bodyOf.has(e.webhook_id))
        findings.push(
          `${s.label}'s backend: ${e.travelrule_status} (event ${e.event_id}) never arrived`,
        );
    if (bodyOf.size !== events.length)
      findings.push(
        `${s.label}'s backend: ${bodyOf.size} webhook-ids received, ${events.length} events stored`,
      );
  }
  // Nothing personal, and no secret token, in anything either side's processes wrote.
  for (const s of sides)
    for (const r of Object.values(s.roles)) {
      const out = r.output();
      for (const v of [...PERSONAL_VALUES, ...s.tokens])
        if (out.includes(v))
          findings.push(`${s.label}'s ${r.role} wrote "${v.slice(0, 12)}…" to its log`);
    }
  const starts = sides
    .map(
      (s) =>
        `${s.label}: ${Object.values(s.roles)
          .map((r) => `${r.role} ${r.starts}`)
          .join(', ')}`,
    )
    .join('; ');
  return {
    findings,
    summary: `${transfers.length} transfers (${transfers.filter((t) => t.accept).length} accepted), ${received} webhooks received (${repeated} repeated), ${sentAgain} TRP messages sent more than once (at most ${mostAttempts} attempts); starts: ${starts}`,
  };
}
