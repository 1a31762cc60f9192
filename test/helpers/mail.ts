import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message as a real SMTP server received it, with its text decoded. */
export interface CapturedMail {
  from: string;
  to: string[];
  raw: string;
  /** Every part's body, decoded (quoted-printable and base64), joined. */
  text: string;
}

/** Quoted-printable (RFC 2045) to UTF-8 text. */
export function decodeQuotedPrintable(s: string): string {
  const soft = s.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    if (soft[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(soft[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The decoded bodies of a MIME message's leaf parts. */
export function decodeMime(raw: string): string {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const rest = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1] ?? '';
  const type = header('content-type') || 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    return rest
      .split(`--${boundary}`)
      .slice(1, -1)
      .map((s) => decodeMime(s.replace(/^\r\n/, '')))
      .join('\n');
  }
  const encoding = header('content-transfer-encoding').toLowerCase();
  if (encoding === 'base64')
    return Buffer.from(rest.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(rest);
  return rest;
}

/** Recipients of this domain are refused at RCPT with 550, as a relay refuses an unknown mailbox. */
export const REFUSED_DOMAIN = 'refused.example';

/**
 * A real SMTP server on loopback (no TLS, no auth) that keeps every message, and refuses
 * recipients at REFUSED_DOMAIN (550 5.1.1).
 */
export class MailCatcher {
  readonly mails: CapturedMail[] = [];
  port = 0;
  private server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo: (address, _session, callback) => {
      if (address.address.endsWith(`@${REFUSED_DOMAIN}`))
        return callback(
          Object.assign(new Error('5.1.1 mailbox unavailable'), { responseCode: 550 }),
        );
      callback();
    },
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        this.mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          text: decodeMime(raw),
        });
        callback();
      });
    },
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async waitFor(count: number, timeoutMs = 30_000): Promise<CapturedMail[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.mails.length < count) {
      if (Date.now() > deadline)
        throw new Error(
          `mail: ${count} message(s) not received within ${timeoutMs} ms (${this.mails.length} received)`,
        );
      await new Promise((r) => setTimeout(r, 100));
    }
    return this.mails;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
