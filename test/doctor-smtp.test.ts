import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { selfSignedLoopback } from './helpers/certs.js';
import { runCli } from './helpers/cli.js';
import { loginRelay, type LoginRelay } from './helpers/smtp-relays.js';

// `tollgate doctor` and the SMTP relay of the Travel Rule e-mail fallback, against real relays
// (smtp-server on 127.0.0.1): one that takes STARTTLS and the login, one without STARTTLS, and
// none at all. The login is in the URL: it must never be printed, not even when the relay echoes
// it in its refusal.

const USER = 'relayuser';
const PASSWORD = 's3cret/p@ss';
/** The login as the URL holds it (percent-encoded) and as AUTH PLAIN sends it (base64). */
const LOGIN_FORMS = [
  USER,
  PASSWORD,
  encodeURIComponent(PASSWORD),
  Buffer.from(`\0${USER}\0${PASSWORD}`).toString('base64'),
];

/** A relay that takes `USER` with `PASSWORD`, with STARTTLS when given a certificate. */
const relay = (cert?: { cert: string; key: string }) =>
  loginRelay(cert, { user: USER, password: PASSWORD });

interface Report {
  network: string;
  family: string;
  relay?: string;
  checks: { name: string; ok: boolean; required: boolean; detail: string }[];
}

/**
 * Runs `tollgate doctor` (with --json unless `text`) and checks that no form of the login was
 * printed, on stdout or in the log.
 */
async function doctor(env: Record<string, string>, args: string[] = [], text = false) {
  const run = runCli(
    'postgres://unused@127.0.0.1:1/none',
    ['doctor', ...(text ? [] : ['--json']), ...args],
    env,
    'info',
  );
  const code = await run.exited;
  for (const secret of LOGIN_FORMS) {
    expect(run.out()).not.toContain(secret);
    expect(run.err()).not.toContain(secret);
  }
  const reports: Report[] = !text && code !== 2 && run.out() ? run.lastJson() : [];
  return {
    code,
    reports,
    smtp: reports.find((r) => r.family === 'smtp'),
    out: run.out(),
    err: run.err(),
  };
}

const smtpEnv = (port: number, starttls = 'required') => ({
  TOLLGATE_SMTP_URL: `smtp://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}`,
  TOLLGATE_SMTP_STARTTLS: starttls,
  TOLLGATE_SMTP_TLS_INSECURE: 'true', // the relay's certificate is self-signed
});

let tls: LoginRelay;
let plain: LoginRelay;

beforeAll(async () => {
  tls = await relay(await selfSignedLoopback('relay.acme.example'));
  plain = await relay();
});

afterAll(async () => {
  await tls?.close();
  await plain?.close();
});

describe('tollgate doctor: the SMTP relay', () => {
  it('passes a relay that takes STARTTLS and the login, sending nothing (exit 0)', async () => {
    const before = tls.logins.length;
    const r = await doctor(smtpEnv(tls.port));
    expect(r.code).toBe(0);
    // No node configured: the relay alone.
    expect(r.reports).toEqual([
      {
        network: 'smtp',
        family: 'smtp',
        relay: `127.0.0.1:${tls.port}`,
        checks: [
          {
            name: 'relay takes e-mails (connect, TLS, login)',
            ok: true,
            required: true,
            detail: `127.0.0.1:${tls.port}: reached; STARTTLS taken; login accepted or not offered; nothing sent`,
          },
        ],
      },
    ]);
    expect(tls.logins.slice(before)).toEqual([{ user: USER, secure: true }]);
    expect(tls.mails).toEqual([]);

    const text = await doctor(smtpEnv(tls.port), [], true);
    expect(text.code).toBe(0);
    expect(text.out).toBe(
      [
        'smtp relay (Travel Rule e-mail fallback)',
        `  ok       relay takes e-mails (connect, TLS, login): 127.0.0.1:${tls.port}: reached; STARTTLS taken; login accepted or not offered; nothing sent`,
        'networks: none configured (TOLLGATE_RPC_<NETWORK>)',
        '',
      ].join('\n'),
    );
  });

  it('fails a wrong password, naming the refusal without the login the relay echoed (exit 1)', async () => {
    const env = {
      ...smtpEnv(tls.port),
      TOLLGATE_SMTP_URL: `smtp://${USER}:wrong-${encodeURIComponent(PASSWORD)}@127.0.0.1:${tls.port}`,
    };
    const before = tls.logins.length;
    const r = await doctor(env);
    expect(r.code).toBe(1);
    expect(r.smtp?.checks).toEqual([
      {
        name: 'relay takes e-mails (connect, TLS, login)',
        ok: false,
        required: true,
        detail: `127.0.0.1:${tls.port}: SMTP send failed (EAUTH at AUTH PLAIN): 535 no login <login hidden> with password <login hidden>; the relay refused the login: check TOLLGATE_SMTP_URL's user and password`,
      },
    ]);
    // The relay did get the login, over TLS, and repeated it in its reply.
    expect(tls.logins.slice(before)).toEqual([{ user: USER, secure: true }]);
    const text = await doctor(env, [], true);
    expect(text.code).toBe(1);
    expect(text.out).toContain(
      `  MISSING  relay takes e-mails (connect, TLS, login): 127.0.0.1:${tls.port}: SMTP send failed (EAUTH at AUTH PLAIN): 535 no login <login hidden>`,
    );
  });

  it('fails a relay without STARTTLS while it is required, naming the setting; sends no login', async () => {
    const r = await doctor(smtpEnv(plain.port));
    expect(r.code).toBe(1);
    expect(r.smtp?.checks[0]).toMatchObject({ ok: false, required: true });
    expect(r.smtp?.checks[0]?.detail).toMatch(
      new RegExp(
        `^127\\.0\\.0\\.1:${plain.port}: SMTP send failed \\(ETLS at STARTTLS\\): .*no TLS with the relay, so nothing was sent \\(TOLLGATE_SMTP_STARTTLS=required: the relay must take STARTTLS`,
      ),
    );
    expect(plain.logins).toEqual([]);
    // With STARTTLS if offered, the same relay passes (the login in plain text, as configured).
    const ifOffered = await doctor(smtpEnv(plain.port, 'if_offered'));
    expect(ifOffered.code).toBe(0);
    expect(ifOffered.smtp?.checks[0]?.detail).toBe(
      `127.0.0.1:${plain.port}: reached; STARTTLS if the relay offers it; login accepted or not offered; nothing sent`,
    );
  });

  it('fails when nothing listens at the relay, naming it', async () => {
    const r = await doctor(smtpEnv(1));
    expect(r.code).toBe(1);
    expect(r.smtp).toMatchObject({ relay: '127.0.0.1:1' });
    expect(r.smtp?.checks[0]).toMatchObject({
      ok: false,
      required: true,
      detail: '127.0.0.1:1: SMTP send failed (ESOCKET at CONN): connect ECONNREFUSED 127.0.0.1:1',
    });
  });

  it('checks the relay after the nodes; --smtp and --network check only what they name', async () => {
    const env = { ...smtpEnv(tls.port), TOLLGATE_RPC_ETH: inject('rpcUrl') };
    const all = await doctor(env);
    expect(all.code).toBe(0);
    expect(all.reports.map((r) => r.network)).toEqual(['eth', 'smtp']);
    const smtpOnly = await doctor(
      { ...env, TOLLGATE_RPC_ETH: 'http://127.0.0.1:1' }, // down, and not asked
      ['--smtp', '--json'],
    );
    expect(smtpOnly.code).toBe(0);
    expect(smtpOnly.reports.map((r) => r.network)).toEqual(['smtp']);
    const ethOnly = await doctor({ ...env, ...smtpEnv(1) }, ['--network', 'eth']);
    expect(ethOnly.code).toBe(0); // the relay is down, and not asked
    expect(ethOnly.reports.map((r) => r.network)).toEqual(['eth']);
    const both = await doctor(env, ['--network', 'eth', '--smtp']);
    expect(both.reports.map((r) => r.network)).toEqual(['eth', 'smtp']);
  });

  it('without a relay: one line, not a failure; --smtp is refused', async () => {
    const env = { TOLLGATE_RPC_ETH: inject('rpcUrl') };
    const json = await doctor(env);
    expect(json.code).toBe(0);
    expect(json.reports.map((r) => r.network)).toEqual(['eth']);
    const text = await doctor(env, [], true);
    expect(text.code).toBe(0);
    expect(text.out.trim().split('\n').pop()).toBe(
      'smtp relay: none configured (TOLLGATE_SMTP_URL): no e-mail is sent, and a transfer that needs one is refused (503)',
    );
    const asked = await doctor(env, ['--smtp']);
    expect(asked.code).toBe(1);
    expect(asked.err).toContain(
      'tollgate doctor: no SMTP relay configured (set TOLLGATE_SMTP_URL)',
    );
  });
});
