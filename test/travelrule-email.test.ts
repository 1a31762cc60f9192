import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermanentError, RetryableError } from '../src/errors.js';
import {
  composeInquiryEmail,
  composeTxHashEmail,
  messageIdFor,
  classifySendError,
  createMailer,
  logRelayCheck,
  type Mailer,
  startTlsRequired,
} from '../src/travelrule/sending/email.js';
import { freePort } from '../support/ports.js';
import { selfSignedLoopback } from './helpers/certs.js';
import { logLines, runCli } from './helpers/cli.js';
import { freshDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { decodeQuotedPrintable } from './helpers/mail.js';
import { loginRelay } from './helpers/smtp-relays.js';

/**
 * The e-mail fallback against a real SMTP server (smtp-server on 127.0.0.1): what arrives, and
 * how refusals and an unreachable relay are classified; STARTTLS required by default, through a
 * network that strips it from the relay's answer (a relay taking STARTTLS with a certificate of
 * its own, and one without STARTTLS).
 */

interface Received {
  from: string | undefined;
  to: string[];
  raw: string;
}

const REJECT_550 = 'nobody@reject.example';
const TEMPFAIL_451 = 'busy@tempfail.example';
const BLOCKED_SENDER = 'blocked@acme.example';

let server: SMTPServer;
let port: number;
const received: Received[] = [];

beforeAll(async () => {
  server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 1000,
    onMailFrom(address, _session, callback) {
      if (address.address === BLOCKED_SENDER)
        return callback(
          Object.assign(new Error('5.7.1 sender not permitted'), { responseCode: 550 }),
        );
      callback();
    },
    onRcptTo(address, _session, callback) {
      if (address.address === REJECT_550)
        return callback(
          Object.assign(new Error('5.1.1 mailbox unavailable'), { responseCode: 550 }),
        );
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((a) => a.address);
        if (to.includes(TEMPFAIL_451))
          return callback(Object.assign(new Error('4.3.0 try again later'), { responseCode: 451 }));
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined;
        received.push({ from, to, raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

// ---- a minimal MIME reader (mailparser is not a dependency) ----

interface MimePart {
  headers: Map<string, string>;
  body: string;
  parts: MimePart[];
}

/** RFC 2047 encoded words (=?utf-8?Q?…?= / =?utf-8?B?…?=) in a header value. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_m, _charset, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

function parseMime(raw: string): MimePart {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const rest = raw.slice(split + 4);
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    headers.set(
      line.slice(0, colon).trim().toLowerCase(),
      decodeWords(line.slice(colon + 1).trim()),
    );
  }
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    const sections = rest.split(`--${boundary}`).slice(1, -1);
    return { headers, body: '', parts: sections.map((s) => parseMime(s.replace(/^\r\n/, ''))) };
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const body =
    encoding === 'base64'
      ? Buffer.from(rest.replace(/\s+/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintable(rest)
        : rest;
  return { headers, body, parts: [] };
}

function partOfType(m: MimePart, type: string): string {
  if (m.parts.length === 0)
    return (m.headers.get('content-type') ?? '').toLowerCase().startsWith(type) ? m.body : '';
  return m.parts.map((p) => partOfType(p, type)).join('');
}

// ---- a sample transaction, personal data included ----

const LINK =
  'https://tollgate.vasp.example/v2/travelrule/transaction/3f0c2a4e-8d7b-4b8e-9a57-1c2d3e4f5a6b?q=1781352000.0123456789abcdef.Q2hhcmxlcyBCYWJiYWdlIGRpZmZlcmVuY2UgZW5naW5lXy0';
const sample = {
  to: 'compliance@beneficiary-vasp.example',
  fromVasp: 'Acme Exchange <Istanbul> & Co',
  toVasp: 'Beneficiary VASP Ltd',
  transactionRef: 'WD-2025-000123',
  asset: 'USDT',
  network: 'eth',
  amount: '15250.75',
  link: LINK,
  expiresAt: new Date('2026-06-13T12:00:00Z'),
  txHash: '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060',
  // What the caller also holds: none of it may reach the mail.
  originator: {
    persons: [
      {
        naturalPerson: {
          name: {
            nameIdentifier: [
              {
                primaryIdentifier: 'Lovelace',
                secondaryIdentifier: 'Augusta Ada',
                nameIdentifierType: 'LEGL',
              },
            ],
          },
          dateAndPlaceOfBirth: { dateOfBirth: '1815-12-10', placeOfBirth: 'Marylebone' },
          nationalIdentification: {
            nationalIdentifier: 'X99887766',
            nationalIdentifierType: 'CCPT',
            countryOfIssue: 'GB',
          },
          geographicAddress: [
            {
              addressType: 'HOME',
              streetName: 'Great Cumberland Place',
              buildingNumber: '24',
              postCode: 'W1H 7DP',
              townName: 'Westminster',
              country: 'GB',
            },
          ],
          customerIdentification: 'CUST-77-31415',
        },
      },
    ],
    accountNumber: ['0x52908400098527886E0F7030069857D2E4169EE7'],
  },
  beneficiary: {
    persons: [
      {
        naturalPerson: {
          name: {
            nameIdentifier: [
              {
                primaryIdentifier: 'Somerville',
                secondaryIdentifier: 'Mary Fairfax',
                nameIdentifierType: 'LEGL',
              },
            ],
          },
        },
      },
    ],
    accountNumber: ['0x8617E340B3D01FA5F11F306F4090FD50E238070D'],
  },
};
const PERSONAL = [
  'Lovelace',
  'Augusta',
  '1815-12-10',
  'Marylebone',
  'X99887766',
  'Cumberland',
  'W1H 7DP',
  'Westminster',
  'CUST-77-31415',
  '0x52908400098527886E0F7030069857D2E4169EE7',
  '52908400098527886e0f7030069857d2e4169ee7',
  'Somerville',
  'Fairfax',
  '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
  '8617e340b3d01fa5f11f306f4090fd50e238070d',
];

function mailer(): Mailer {
  return createMailer({
    smtp_url: `smtp://127.0.0.1:${port}`,
    smtp_from: 'Acme Travel Rule <travelrule@acme.example>',
    smtp_tls_insecure: false,
  })!;
}

function assertNoPersonalData(text: string) {
  for (const s of PERSONAL)
    expect(text.toLowerCase(), `must not contain ${s}`).not.toContain(s.toLowerCase());
}

describe('createMailer', () => {
  it('is undefined without an SMTP URL', () => {
    expect(
      createMailer({
        smtp_url: undefined,
        smtp_from: 'x <x@example.com>',
        smtp_tls_insecure: false,
      }),
    ).toBeUndefined();
  });
});

describe('e-mail fallback over SMTP', () => {
  it('delivers the inquiry: headers, the link intact, no personal data', async () => {
    const m = mailer();
    try {
      const { messageId } = await m.send(composeInquiryEmail(sample));
      expect(messageId).toMatch(/^<.+@.+>$/);
    } finally {
      m.close();
    }
    const mail = received.at(-1)!;
    expect(mail.from).toBe('travelrule@acme.example');
    expect(mail.to).toEqual(['compliance@beneficiary-vasp.example']);
    const parsed = parseMime(mail.raw);
    expect(parsed.headers.get('to')).toBe('compliance@beneficiary-vasp.example');
    expect(parsed.headers.get('from')).toBe('Acme Travel Rule <travelrule@acme.example>');
    expect(parsed.headers.get('subject')).toBe(
      'Travel rule information from Acme Exchange <Istanbul> & Co: transaction WD-2025-000123',
    );
    expect(parsed.headers.get('content-type')).toMatch(/^multipart\/alternative/);

    const text = partOfType(parsed, 'text/plain').replace(/\r\n/g, '\n');
    const html = partOfType(parsed, 'text/html');
    expect(text).toContain(`\n${LINK}\n`);
    expect(html).toContain(`<a href="${LINK}">`);
    for (const body of [text, html]) {
      expect(body).toContain('WD-2025-000123');
      expect(body).toContain('15250.75 USDT');
      expect(body).toContain('eth');
      expect(body).toContain('2026-06-13 12:00:00 UTC');
      expect(body).toContain('HTTPS');
    }
    expect(text).toContain('Acme Exchange <Istanbul> & Co');
    expect(html).toContain('Acme Exchange &lt;Istanbul&gt; &amp; Co');
    expect(html).not.toContain('<Istanbul>');
    assertNoPersonalData(mail.raw);
    assertNoPersonalData(text + html);
  });

  it('delivers the transaction hash mail with the hash and no personal data', async () => {
    const m = mailer();
    try {
      await m.send(composeTxHashEmail(sample));
    } finally {
      m.close();
    }
    const parsed = parseMime(received.at(-1)!.raw);
    expect(parsed.headers.get('subject')).toBe(
      'Travel rule transaction WD-2025-000123 sent on chain by Acme Exchange <Istanbul> & Co',
    );
    const text = partOfType(parsed, 'text/plain').replace(/\r\n/g, '\n');
    const html = partOfType(parsed, 'text/html');
    for (const body of [text, html]) {
      expect(body).toContain(sample.txHash);
      expect(body).toContain(LINK);
    }
    assertNoPersonalData(received.at(-1)!.raw);
    assertNoPersonalData(text + html);
  });

  it("gives every attempt at one message the same Message-ID, in the From address's domain", async () => {
    const id = messageIdFor('42', '0b0b0b0b-0000-4000-8000-00000000000b', 'Acme <tr@acme.example>');
    expect(id).toBe('<travelrule.42.0b0b0b0b-0000-4000-8000-00000000000b@acme.example>');
    expect(messageIdFor('1', 't', 'tr@bare.example')).toBe('<travelrule.1.t@bare.example>');
    expect(messageIdFor('1', 't', 'no address')).toBe('<travelrule.1.t@tollgate.invalid>');
    const m = mailer();
    try {
      for (let attempt = 0; attempt < 2; attempt++)
        expect((await m.send({ ...composeInquiryEmail(sample), messageId: id })).messageId).toBe(
          id,
        );
    } finally {
      m.close();
    }
    expect(received.slice(-2).map((r) => parseMime(r.raw).headers.get('message-id'))).toEqual([
      id,
      id,
    ]);
  });

  it('keeps header injection out of the subject', () => {
    const mail = composeInquiryEmail({
      ...sample,
      transactionRef: 'REF\r\nBcc: victim@example.com',
    });
    expect(mail.subject).not.toMatch(/[\r\n]/);
  });

  it('shows bidirectional controls in what others typed as code points, in every part and the subject', () => {
    // An override read "mail-4 exe.png" in the subject and the plain part (found by an outside probe).
    const mail = composeInquiryEmail({ ...sample, transactionRef: 'mail-4 \u202egnp.exe' });
    for (const part of [mail.subject, mail.text, mail.html]) {
      expect(part).toContain('mail-4 [U+202E]gnp.exe');
      expect(part).not.toContain('\u202e');
    }
  });

  it('throws PermanentError on a 5xx refusal of the recipient, without the mail in the message', async () => {
    const m = mailer();
    try {
      const err = await m
        .send(composeInquiryEmail({ ...sample, to: REJECT_550 }))
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PermanentError);
      expect((err as Error).message).toMatch(/550/);
      expect((err as Error).message).not.toContain(LINK);
      expect((err as Error).message).not.toContain('WD-2025-000123');
    } finally {
      m.close();
    }
  });

  it('throws RetryableError on a 5xx that refuses us before the recipient (the login, the sender): every mail would meet it until the settings are mended', async () => {
    const relay = await loginRelay(undefined, { user: 'tollgate', password: 'right-one' });
    const wrongLogin = createMailer({
      smtp_url: `smtp://tollgate:wrong-one@127.0.0.1:${relay.port}`,
      smtp_from: 'Acme Travel Rule <travelrule@acme.example>',
      smtp_tls_insecure: false,
    })!;
    const wrongSender = createMailer({
      smtp_url: `smtp://127.0.0.1:${port}`,
      smtp_from: `Acme Travel Rule <${BLOCKED_SENDER}>`,
      smtp_tls_insecure: false,
    })!;
    try {
      const login = await wrongLogin.send(composeInquiryEmail(sample)).catch((e: unknown) => e);
      expect(login).toBeInstanceOf(RetryableError);
      expect(login).not.toBeInstanceOf(PermanentError);
      expect((login as Error).message).toMatch(/535/);
      expect((login as Error).message).toMatch(
        /the relay refused the login: check TOLLGATE_SMTP_URL's user and password$/,
      );
      expect((login as Error).message).not.toContain('wrong-one');
      const sender = await wrongSender.send(composeInquiryEmail(sample)).catch((e: unknown) => e);
      expect(sender).toBeInstanceOf(RetryableError);
      expect((sender as Error).message).toMatch(
        /550.*the relay refused the sender: check TOLLGATE_SMTP_FROM/,
      );
      expect(relay.mails).toEqual([]);
    } finally {
      wrongLogin.close();
      wrongSender.close();
      await relay.close();
    }
  });

  it('throws RetryableError on a 4xx reply', async () => {
    const m = mailer();
    try {
      const err = await m
        .send(composeInquiryEmail({ ...sample, to: TEMPFAIL_451 }))
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RetryableError);
      expect((err as Error).message).toMatch(/451/);
      expect((err as Error).message).not.toContain(LINK);
    } finally {
      m.close();
    }
  });

  it('throws RetryableError when the relay is unreachable', async () => {
    const closed = await freePort();
    const m = createMailer({
      smtp_url: `smtp://127.0.0.1:${closed}`,
      smtp_from: 'x <x@acme.example>',
      smtp_tls_insecure: false,
    })!;
    try {
      const err = await m.send(composeInquiryEmail(sample)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RetryableError);
      expect((err as Error).message).toMatch(/ECONNREFUSED|ECONNECTION/);
      expect((err as Error).message).not.toContain(LINK);
    } finally {
      m.close();
    }
  });
});

/**
 * A man in the middle between Tollgate and the relay, as on a network Tollgate does not control:
 * it passes everything on, but takes STARTTLS out of the relay's answers (the word replaced by
 * another extension name). `plain` holds what Tollgate sent before any STARTTLS, as the
 * attacker reads it.
 */
async function strippingRelay(relayPort: number) {
  const plain: Buffer[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(relayPort, '127.0.0.1');
    let upgrading = false;
    for (const sock of [client, upstream]) {
      sockets.add(sock);
      sock.on('error', () => {});
      sock.on('close', () => {
        sockets.delete(sock);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (d: Buffer) => {
      if (!upgrading) plain.push(d);
      if (/^STARTTLS\r?$/im.test(d.toString('latin1'))) upgrading = true;
      upstream.write(d);
    });
    upstream.on('data', (d: Buffer) =>
      client.write(
        upgrading
          ? d
          : Buffer.from(d.toString('latin1').replace(/STARTTLS/g, 'XSTRIPPD'), 'latin1'),
      ),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    seen: () => Buffer.concat(plain).toString('latin1'),
    forget: () => {
      plain.length = 0;
    },
    async close() {
      for (const sock of sockets) sock.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

describe('a relay that hangs', () => {
  // nodemailer's own limits are 2 minutes to connect, 30 s for the greeting and 10 minutes of
  // silence; the mailer's are 10 s each, so a job does not hold a worker for minutes.
  it('is given up after the 10 s limit, as retryable', { timeout: 25_000 }, async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((sock) => {
      sockets.add(sock);
      sock.on('error', () => {});
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const err = await sendingTo((silent.address() as AddressInfo).port);
      expect(err).toBeInstanceOf(RetryableError);
      expect((err as Error).message).toMatch(/^SMTP send failed \(ETIMEDOUT at CONN\)/);
    } finally {
      for (const sock of sockets) sock.destroy();
      await new Promise((r) => silent.close(r));
    }
  });
});

/** The error of one send to a relay at `port` with a login (its certificate not taken). */
async function sendingTo(port: number, smtp_starttls?: 'required'): Promise<unknown> {
  const m = createMailer({
    smtp_url: `smtp://relayuser:s3cret-pass@127.0.0.1:${port}`,
    smtp_from: 'x <x@acme.example>',
    smtp_tls_insecure: false,
    smtp_starttls,
  })!;
  try {
    return await m.send(composeInquiryEmail(sample)).catch((e: unknown) => e);
  } finally {
    m.close();
  }
}

describe('STARTTLS', () => {
  it('is required unless configured otherwise, but for a relay on a loopback host', () => {
    const required = (smtp_url: string, smtp_starttls?: 'required' | 'if_offered') =>
      startTlsRequired({ smtp_url, smtp_starttls });
    expect(required('smtp://user:pass@mail.acme.example:587')).toBe(true);
    expect(required('smtp://10.1.2.3:25')).toBe(true);
    expect(required('smtp://mail.acme.example:25', 'if_offered')).toBe(false);
    for (const local of ['smtp://127.0.0.1:25', 'smtp://localhost:25', 'smtp://[::1]:25'])
      expect(required(local), local).toBe(false);
    expect(required('smtp://127.0.0.1:25', 'required')).toBe(true);
    // TLS from the first byte: nothing to upgrade.
    expect(required('smtps://mail.acme.example:465')).toBe(false);
  });

  it('sends the login and the mail only over TLS, though the network strips STARTTLS', async () => {
    const cert = await selfSignedLoopback('relay.acme.example');
    const relay = await loginRelay(cert);
    const mitm = await strippingRelay(relay.port);
    const send = async (smtp_starttls: 'required' | 'if_offered') => {
      const m = createMailer({
        smtp_url: `smtp://relayuser:s3cret-pass@127.0.0.1:${mitm.port}`,
        smtp_from: 'Acme Travel Rule <travelrule@acme.example>',
        smtp_tls_insecure: true,
        smtp_starttls,
      })!;
      try {
        await m.send(composeInquiryEmail(sample));
      } finally {
        m.close();
      }
    };
    try {
      await send('required');
      expect(relay.logins).toEqual([{ user: 'relayuser', secure: true }]);
      expect(relay.mails.map((x) => x.secure)).toEqual([true]);
      expect(relay.mails[0]!.raw).toContain('WD-2025-000123');
      const seen = mitm.seen();
      expect(seen).toMatch(/^EHLO /);
      expect(seen).toMatch(/STARTTLS\r\n$/);
      expect(seen).not.toMatch(/AUTH|MAIL FROM|WD-2025|travel/i);

      // What the same network sees of a client that takes the relay's answer as it comes.
      mitm.forget();
      await send('if_offered');
      expect(relay.logins.at(-1)).toEqual({ user: 'relayuser', secure: false });
      expect(mitm.seen()).toMatch(/AUTH PLAIN/);
      expect(mitm.seen()).toContain('WD-2025-000123');
    } finally {
      await mitm.close();
      await relay.close();
    }
  });

  it('sends nothing to a relay without STARTTLS when it is required, and says why', async () => {
    const relay = await loginRelay();
    try {
      const err = await sendingTo(relay.port, 'required');
      expect(err).toBeInstanceOf(RetryableError);
      const message = (err as Error).message;
      expect(message).toMatch(/^SMTP send failed \(ETLS at STARTTLS\): \d{3} /);
      expect(message).toContain('no TLS with the relay, so nothing was sent');
      expect(message).toContain('TOLLGATE_SMTP_STARTTLS');
      expect(message).not.toMatch(/s3cret|relayuser|WD-2025/);
      expect(relay.logins).toEqual([]);
      expect(relay.mails).toEqual([]);
    } finally {
      await relay.close();
    }
  });

  it('sends nothing to a relay whose certificate is not trusted, and says why', async () => {
    const relay = await loginRelay(await selfSignedLoopback('relay.acme.example'));
    try {
      const err = await sendingTo(relay.port);
      expect(err).toBeInstanceOf(RetryableError);
      expect((err as Error).message).toMatch(
        /^SMTP send failed \(ESOCKET at CONN\): self-signed certificate; no TLS with the relay, so nothing was sent \(.*TOLLGATE_SMTP_TLS_INSECURE/,
      );
      expect(relay.logins).toEqual([]);
      expect(relay.mails).toEqual([]);
    } finally {
      await relay.close();
    }
  });
});

describe('the relay checked at the start', () => {
  /** What logRelayCheck says, as the log would have it. */
  const said = async (m: Mailer) => {
    const lines: { level: 'info' | 'warn'; fields: object; msg: string }[] = [];
    await logRelayCheck(m, {
      info: (fields, msg) => lines.push({ level: 'info', fields, msg }),
      warn: (fields, msg) => lines.push({ level: 'warn', fields, msg }),
    });
    return lines;
  };

  it('says the relay is ready, or why it cannot take e-mails, never its login', async () => {
    const cert = await selfSignedLoopback('relay.acme.example');
    const withTls = await loginRelay(cert);
    const plain = await loginRelay();
    const mailerFor = (port: number, smtp_starttls: 'required' | 'if_offered') =>
      createMailer({
        smtp_url: `smtp://relayuser:s3cret-pass@127.0.0.1:${port}`,
        smtp_from: 'x <x@acme.example>',
        smtp_tls_insecure: true,
        smtp_starttls,
      })!;
    const ready = mailerFor(withTls.port, 'required');
    const noTls = mailerFor(plain.port, 'required');
    try {
      expect(ready.relay).toBe(`127.0.0.1:${withTls.port}`);
      expect(await said(ready)).toEqual([
        {
          level: 'info',
          fields: { relay: `127.0.0.1:${withTls.port}`, starttls_required: true },
          msg: 'SMTP relay ready: reached, with TLS and login as configured',
        },
      ]);
      // It logged in, over TLS, and sent nothing.
      expect(withTls.logins).toEqual([{ user: 'relayuser', secure: true }]);
      expect(withTls.mails).toEqual([]);

      const [line] = await said(noTls);
      expect(line).toMatchObject({
        level: 'warn',
        fields: { relay: `127.0.0.1:${plain.port}`, starttls_required: true },
        msg: 'the SMTP relay cannot take e-mails now: e-mails of the fallback wait and are tried again',
      });
      expect((line!.fields as { error: string }).error).toMatch(
        /^SMTP send failed \(ETLS at STARTTLS\): .*no TLS with the relay, so nothing was sent/,
      );
      expect(JSON.stringify(line)).not.toMatch(/s3cret|relayuser/);
      expect(plain.logins).toEqual([]);
    } finally {
      ready.close();
      noTls.close();
      await withTls.close();
      await plain.close();
    }
  });

  it("is in the worker's start log", async () => {
    const relay = await loginRelay();
    const db = await freshDatabase();
    const run = runCli(
      db.url,
      ['worker'],
      {
        TOLLGATE_SMTP_URL: `smtp://relayuser:s3cret-pass@127.0.0.1:${relay.port}`,
        TOLLGATE_SMTP_STARTTLS: 'required',
        TOLLGATE_HEALTH_PORT: String(await freePort()),
      },
      'info',
    );
    try {
      const line = await eventually(
        async () =>
          logLines(run.err()).find((l) => l.msg.startsWith('the SMTP relay cannot take e-mails')),
        (l) => l !== undefined,
        60_000,
      );
      expect(line).toMatchObject({ level: 40, relay: `127.0.0.1:${relay.port}` });
      expect(run.err()).not.toContain('s3cret');
      expect(relay.logins).toEqual([]);
    } finally {
      run.child.kill('SIGTERM');
      await run.exited;
      await relay.close();
      await db.drop();
    }
  });
});

describe('a scheme that does not match the port', () => {
  it('says so: smtps:// to a relay that greets in plain text, smtp:// to port 465', async () => {
    // The relay of this file greets in plain text.
    const m = createMailer({
      smtp_url: `smtps://127.0.0.1:${port}`,
      smtp_from: 'x <x@acme.example>',
      smtp_tls_insecure: true,
    })!;
    let err: unknown;
    try {
      err = await m.send(composeInquiryEmail(sample)).catch((e: unknown) => e);
    } finally {
      m.close();
    }
    expect(err).toBeInstanceOf(RetryableError);
    expect((err as Error).message).toMatch(
      /wrong version number.*; the relay greets in plain text on this port: use smtp:\/\/ \(STARTTLS\)/,
    );
    // What nodemailer says when a relay on 465 waits for TLS and never greets (no relay on 465
    // here: the error as it comes).
    const timeout = Object.assign(new Error('Timeout'), { code: 'ETIMEDOUT', command: 'CONN' });
    expect(classifySendError(timeout, true, new URL('smtp://mail.acme.example:465')).message).toBe(
      'SMTP send failed (ETIMEDOUT at CONN): Timeout; port 465 takes TLS from the first byte: use smtps://',
    );
    expect(classifySendError(timeout, true, new URL('smtp://mail.acme.example:587')).message).toBe(
      'SMTP send failed (ETIMEDOUT at CONN): Timeout',
    );
  });
});

describe("the relay's own words", () => {
  it('stay out of the log, and a view link they quote keeps no token anywhere', () => {
    // A greylisting filter quoting the link it refused (found by an outside probe: the link's
    // token, valid for days, was in the worker's log).
    const link =
      'https://tollgate.example/v2/travelrule/transaction/4a50?q=1796594013.def4eaed.ZjSm-x_1';
    const greylisted = Object.assign(new Error('Message failed'), {
      code: 'EMESSAGE',
      command: 'DATA',
      responseCode: 451,
      response: `451-4.7.1 greylisted, URL ${link} try later`,
    });
    const err = classifySendError(greylisted, true, new URL('smtp://mail.acme.example:587'));
    expect(err).toBeInstanceOf(RetryableError);
    // For the message's record: the relay's words, without the token.
    expect(err.message).toBe(
      'SMTP send failed (EMESSAGE at DATA): 451-4.7.1 greylisted, URL https://tollgate.example/v2/travelrule/transaction/4a50?q=<token hidden> try later',
    );
    // For the log: its code only.
    expect((err as Error & { forLog: string }).forLog).toBe(
      "SMTP send failed (EMESSAGE at DATA): relay answered 451 4.7.1 (its words are in the message's record)",
    );
    // A refusal keeps its kind (PermanentError) and its hint.
    const refused = classifySendError(
      { ...greylisted, responseCode: 550, response: `550 5.7.1 rejected: ${link}` },
      true,
      new URL('smtp://mail.acme.example:587'),
    );
    expect(refused).toBeInstanceOf(PermanentError);
    expect((refused as Error & { forLog: string }).forLog).not.toContain('q=');
  });
});
