import nodemailer from 'nodemailer';
import type { Logger } from 'nodemailer/lib/shared/index.js';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { TravelRuleConfig } from '../../config/index.js';
import { PermanentError, RetryableError } from '../../errors.js';
import { isLoopbackHost } from '../../urls.js';
import { escapeHtml, withVisibleControls } from '../view-page.js';

/**
 * The e-mail fallback: a VASP without the travel rule protocol is told about a transaction by
 * e-mail, through the SMTP relay of config travel_rule.smtp_url.
 *
 * Privacy: an e-mail crosses relays and sits in mailboxes, so it carries no personal data (no
 * names, dates of birth, identity numbers, addresses, customer numbers or wallet addresses);
 * those are only behind the HMAC view link. The mail says who sends it, the reference, the
 * asset and amount, the link and its expiry, and what to do.
 */

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * The Message-ID, the same for every attempt at one message (messageIdFor): an attempt whose
   * answer from the relay was lost may have gone out, and the one after it is then a copy that
   * the receiving system and people can tell is the same message (RFC 5322 3.6.4). Without it
   * the relay's library makes a new one per attempt.
   */
  messageId?: string;
}

/**
 * The Message-ID of a travel rule message (a travelrule_messages row) of a transaction, in the
 * domain of the From address (`TOLLGATE_SMTP_FROM`): stable across its attempts, unique to it.
 * Only ids: nothing personal.
 */
export function messageIdFor(messageRowId: string, transactionId: string, from: string): string {
  const domain = /@([^\s>@]+)>?\s*$/.exec(from)?.[1] ?? 'tollgate.invalid';
  return `<travelrule.${messageRowId}.${transactionId}@${domain}>`;
}

export interface Mailer {
  send(m: MailMessage): Promise<{ messageId: string }>;
  /**
   * Connects to the relay as a send would (TLS, login) and leaves without sending; throws the
   * error a send would meet there (classified the same way).
   */
  verify(): Promise<void>;
  /** The relay, `host:port`, for logs (never the login). */
  readonly relay: string;
  /** Whether it sends nothing without STARTTLS (startTlsRequired). */
  readonly starttlsRequired: boolean;
  close(): void;
}

const SMTP_CONNECTION_TIMEOUT_MS = 10_000;
const SMTP_GREETING_TIMEOUT_MS = 10_000;
const SMTP_SOCKET_TIMEOUT_MS = 10_000;
/** How much of a relay's reply goes into an error message. */
const SMTP_REPLY_MAX_CHARS = 200;

type MailerConfig = Pick<
  TravelRuleConfig,
  'smtp_url' | 'smtp_from' | 'smtp_tls_insecure' | 'smtp_starttls'
>;

/**
 * Whether an smtp:// relay must take STARTTLS before anything is sent (config smtp_starttls;
 * unset: yes, unless the relay is on a loopback host). False for smtps://, which is TLS from the
 * first byte.
 */
export function startTlsRequired(cfg: Pick<MailerConfig, 'smtp_url' | 'smtp_starttls'>): boolean {
  if (!cfg.smtp_url) return false;
  const url = new URL(cfg.smtp_url);
  if (url.protocol !== 'smtp:') return false;
  return (cfg.smtp_starttls ?? (isLoopbackHost(url) ? 'if_offered' : 'required')) === 'required';
}

/** Undefined when no relay is configured (no e-mail is sent). */
export function createMailer(cfg: MailerConfig): Mailer | undefined {
  if (!cfg.smtp_url) return undefined;
  const url = new URL(cfg.smtp_url);
  const requireTLS = startTlsRequired(cfg);
  const port = url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587;
  // The relay as options of their own, not as `url`: given a `url`, createTransport takes the
  // URL's options alone and drops every other one (the timeouts, TLS settings, requireTLS).
  const options: SMTPTransport.Options = {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port,
    secure: url.protocol === 'smtps:',
    ...(url.username || url.password
      ? {
          auth: {
            user: decodeURIComponent(url.username),
            pass: decodeURIComponent(url.password),
          },
        }
      : {}),
    connectionTimeout: SMTP_CONNECTION_TIMEOUT_MS,
    greetingTimeout: SMTP_GREETING_TIMEOUT_MS,
    socketTimeout: SMTP_SOCKET_TIMEOUT_MS,
    // STARTTLS is asked for even when the relay's answer does not offer it (an attacker on the
    // path may have taken it out), and nothing, not the login either, goes without it.
    requireTLS,
    ...(cfg.smtp_tls_insecure ? { tls: { rejectUnauthorized: false } } : {}),
    // Never let nodemailer log the conversation (it would hold the message).
    logger: false,
    debug: false,
  };
  const transport = nodemailer.createTransport(options);
  return {
    async send(m) {
      // A transport of its own for each mail (it connects per mail anyway), whose logger hears
      // only whether the whole message went out (nodemailer's info event after the data and its
      // final dot; without `debug` nothing of the conversation is logged).
      const heard = wholeMessageWatch();
      const once = nodemailer.createTransport({ ...options, logger: heard.logger });
      try {
        const info = await once.sendMail({
          from: cfg.smtp_from,
          to: m.to,
          subject: m.subject,
          text: m.text,
          html: m.html,
          ...(m.messageId ? { messageId: m.messageId } : {}),
        });
        return { messageId: info.messageId };
      } catch (err) {
        const e = classifySendError(err, requireTLS, url);
        // Sent whole and no reply to it (a cut, a timeout): the relay may have taken it.
        if (heard.whole && e instanceof RetryableError && !(err as NodemailerError).responseCode)
          throw new MailInDoubtError(
            `${e.message}; the mail went out whole and the relay's answer was lost: the relay may have it`,
          );
        throw e;
      } finally {
        once.close();
      }
    },
    async verify() {
      try {
        await transport.verify();
      } catch (err) {
        throw classifySendError(err, requireTLS, url);
      }
    },
    relay: `${url.hostname}:${port}`,
    starttlsRequired: requireTLS,
    close() {
      transport.close();
    },
  };
}

/** A mail that went out whole to the relay, whose answer never came: it may have it. */
export class MailInDoubtError extends RetryableError {}

/** A bunyan-style logger for one mail's transport that notes only the end of the message data. */
function wholeMessageWatch(): { logger: Logger; whole: boolean } {
  const quiet = () => {};
  const watch = {
    whole: false,
    logger: {
      level: quiet,
      trace: quiet,
      debug: quiet,
      warn: quiet,
      error: quiet,
      fatal: quiet,
      info: (entry?: { tnx?: string }) => {
        if (entry?.tnx === 'message') watch.whole = true;
      },
    },
  };
  return watch;
}

/**
 * Whether the relay takes e-mails now, said once in the worker's start log: a relay that cannot be
 * reached, refuses TLS or the login is found at the start rather than at the first transfer.
 * The start does not wait for it or fail on it (a relay down now may be up by then); e-mails wait
 * and are tried again as always.
 */
export async function logRelayCheck(
  mailer: Mailer,
  logger: { info(o: object, m: string): void; warn(o: object, m: string): void },
): Promise<void> {
  const fields = { relay: mailer.relay, starttls_required: mailer.starttlsRequired };
  try {
    await mailer.verify();
    logger.info(fields, 'SMTP relay ready: reached, with TLS and login as configured');
  } catch (err) {
    logger.warn(
      { ...fields, error: (err as Error).message },
      'the SMTP relay cannot take e-mails now: e-mails of the fallback wait and are tried again',
    );
  }
}

interface NodemailerError {
  code?: string;
  responseCode?: number;
  response?: string;
  command?: string;
  message?: string;
}

/** Local errors of the message or envelope itself: sending it again cannot help. */
const PERMANENT_CODES = new Set(['EENVELOPE', 'EMESSAGE', 'ECONFIG', 'ENOAUTH', 'EREQUIRETLS']);

/**
 * 5xx replies to the recipient or the message are refusals (PermanentError); 4xx replies, 5xx
 * replies that refuse us before the recipient, and connection failures are for now
 * (RetryableError). The message names the code, the command and the relay's reply, never the
 * mail; the nodemailer error is not kept as the cause, so nothing of the mail can leak through it.
 */
export function classifySendError(err: unknown, startTlsRequired: boolean, relay: URL): Error {
  const e = (typeof err === 'object' && err !== null ? err : {}) as NodemailerError;
  // Cleared of secrets before it is cut; the message goes to the operators.
  const reply = oneLine(withoutSecrets(e.response ?? e.message ?? String(err), relay));
  const classified = classifyReply(e, reply, startTlsRequired, relay);
  // The relay's own words stay out of the log: it may quote the mail back (a greylisting or
  // content filter quoting the view link it refused, whose token opens the persons for days).
  // The log gets its reply code; the message's record (last_error, counterparty_reason) the words.
  if (typeof e.responseCode !== 'number' || e.response === undefined) return classified;
  const code =
    /^\d{3}(?:[ -]\d\.\d{1,3}\.\d{1,3})?/.exec(e.response.trim())?.[0] ?? String(e.responseCode);
  return Object.assign(classified, {
    forLog: classified.message.replace(
      reply,
      `relay answered ${code.replace('-', ' ')} (its words are in the message's record)`,
    ),
  });
}

/**
 * The relay's reply without what must not be kept with it: the relay URL's login (a relay may
 * repeat what it was sent: its refusal of AUTH naming the user and password) and the token of a
 * view link it quotes back.
 */
function withoutSecrets(text: string, relay: URL): string {
  return withoutLogin(text, relay).replace(/([?&]q=)[^\s&"'<>]+/g, '$1<token hidden>');
}

/** The error of classifySendError, its message carrying `reply` (the relay's words, cleared). */
function classifyReply(
  e: NodemailerError,
  reply: string,
  startTlsRequired: boolean,
  relay: URL,
): Error {
  const what = [e.code, e.command && `at ${e.command}`].filter(Boolean).join(' ');
  const message = `SMTP send failed${what ? ` (${what})` : ''}: ${reply}`;
  // The scheme and the port disagree: TLS from the first byte to a relay that greets in plain
  // text (OpenSSL's "wrong version number"), or plain text to one waiting for TLS (no greeting).
  if (relay.protocol === 'smtps:' && /wrong version number/i.test(e.message ?? ''))
    return new RetryableError(
      `${message}; the relay greets in plain text on this port: use smtp:// (STARTTLS); smtps:// is for a port taking TLS from the first byte (465)`,
    );
  if (
    relay.protocol === 'smtp:' &&
    e.code === 'ETIMEDOUT' &&
    e.command === 'CONN' &&
    relay.port === '465'
  )
    return new RetryableError(`${message}; port 465 takes TLS from the first byte: use smtps://`);
  // No TLS with the relay (STARTTLS refused, not offered while required, or a certificate not
  // trusted: Node's verification errors, which nodemailer passes on as ESOCKET, name the
  // certificate): nothing was sent. Not the relay's answer to the mail: tried again, as the
  // network between may be what took TLS away.
  if (
    e.code === 'ETLS' ||
    (e.command === 'EHLO' && /STARTTLS/.test(e.message ?? '')) ||
    (e.code === 'ESOCKET' && /certificate|\bTLS\b|\bSSL\b/i.test(e.message ?? ''))
  )
    return new RetryableError(
      `${message}; no TLS with the relay, so nothing was sent (${startTlsRequired ? 'TOLLGATE_SMTP_STARTTLS=required: the relay must take STARTTLS; ' : ''}TOLLGATE_SMTP_TLS_INSECURE takes its self-signed certificate)`,
    );
  const status = e.responseCode;
  // A 5xx to the recipient or the message is the mail refused: sending it again cannot help. One
  // before them (the greeting, EHLO, the login, the sender) refuses us, not this mail: every mail
  // would meet it until our settings or the relay's are mended, so it is tried again.
  if (typeof status === 'number' && status >= 500 && status < 600)
    return e.command === 'RCPT TO' || e.command === 'DATA'
      ? new PermanentError(message)
      : new RetryableError(`${message}; ${refusesUs(e.command)}`);
  if (typeof status === 'number' && status >= 400 && status < 500)
    return new RetryableError(message);
  if (e.code !== undefined && PERMANENT_CODES.has(e.code)) return new PermanentError(message);
  return new RetryableError(message);
}

/** What a 5xx before the recipient says of our own settings. */
function refusesUs(command: string | undefined): string {
  if (command?.startsWith('AUTH'))
    return "the relay refused the login: check TOLLGATE_SMTP_URL's user and password";
  if (command === 'MAIL FROM')
    return 'the relay refused the sender: check TOLLGATE_SMTP_FROM, and whether the relay wants a login (TOLLGATE_SMTP_URL)';
  return 'the relay refused the session, not this mail';
}

/**
 * `text` without the relay URL's user name and password: as written, decoded, or in base64 as
 * AUTH sends them (each alone, and AUTH PLAIN's token of both).
 */
function withoutLogin(text: string, url: URL): string {
  const user = safeDecode(url.username);
  const pass = safeDecode(url.password);
  const b64 = (v: string) => Buffer.from(v).toString('base64');
  const secrets = [url.username, url.password, user, pass, b64(user), b64(pass)];
  if (user || pass) secrets.push(b64(`\0${user}\0${pass}`));
  // Not one or two characters: those would blank out letters of the reply itself.
  const hidden = [...new Set(secrets.filter((v) => v.length > 2))].sort(
    (a, b) => b.length - a.length,
  );
  if (!hidden.length) return text;
  const pattern = new RegExp(
    hidden.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'),
    'g',
  );
  return text.replace(pattern, '<login hidden>');
}

function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

function oneLine(s: string): string {
  const flat = s.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return flat.length > SMTP_REPLY_MAX_CHARS ? `${flat.slice(0, SMTP_REPLY_MAX_CHARS)}…` : flat;
}

/** A header value on one line: no CR/LF or other control characters. */
function headerText(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}

function utc(d: Date): string {
  const iso = d.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

interface MailCommon {
  to: string;
  fromVasp: string;
  toVasp: string;
  transactionRef: string;
  asset: string;
  network: string | null;
  amount: string;
  link: string;
  expiresAt: Date;
}

type Fact = [label: string, value: string];

/** The transfer's facts, then `extra`, then the link's expiry when the mail carries a link. */
function facts(
  d: Omit<MailCommon, 'link' | 'expiresAt'> & { expiresAt?: Date },
  extra: Fact[] = [],
): Fact[] {
  return [
    ['Sending VASP', d.fromVasp],
    ['Reference', d.transactionRef],
    ['Asset', d.asset],
    ...(d.network !== null ? [['Network', d.network] as Fact] : []),
    ['Amount', `${d.amount} ${d.asset}`],
    ...extra,
    ...(d.expiresAt ? [['Link valid until', utc(d.expiresAt)] as Fact] : []),
  ];
}

/**
 * Plain text and HTML from the same paragraphs; `link`, when the mail has one, is shown on a
 * line of its own, with the warning that it shows personal data.
 */
function compose(
  d: Pick<MailCommon, 'to' | 'toVasp' | 'fromVasp'> & { link?: string },
  subject: string,
  intro: string,
  list: Fact[],
  steps: string[],
): MailMessage {
  const width = Math.max(...list.map(([l]) => l.length)) + 2;
  const link = d.link;
  // What others typed (a reference, a VASP's name) cannot turn the mail's lines around, as in
  // the HTML part (escapeHtml).
  const text = withVisibleControls(
    [
      `Dear ${d.toVasp} compliance team,`,
      '',
      intro,
      '',
      ...list.map(([l, v]) => `${`${l}:`.padEnd(width)}${v}`),
      '',
      ...(link ? ['Transaction information (opens over HTTPS):', link, ''] : []),
      ...steps,
      '',
      ...(link ? ['The link shows personal data: please do not forward it.', ''] : []),
      `${d.fromVasp} (sent by Tollgate)`,
      '',
    ].join('\n'),
  );
  const html = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family: sans-serif; color: #1a1a1a; background: #ffffff; line-height: 1.5">
<p>Dear ${escapeHtml(d.toVasp)} compliance team,</p>
<p>${escapeHtml(intro)}</p>
<table role="presentation" style="border-collapse: collapse">
${list.map(([l, v]) => `<tr><th scope="row" style="text-align: left; padding: 2px 16px 2px 0">${escapeHtml(l)}</th><td style="font-family: monospace">${escapeHtml(v)}</td></tr>`).join('\n')}
</table>
${link ? `<p><a href="${escapeHtml(link)}">Open the transaction information</a> (HTTPS)<br><span style="font-family: monospace; word-break: break-all">${escapeHtml(link)}</span></p>\n` : ''}${steps.map((s) => `<p>${escapeHtml(s)}</p>`).join('\n')}
${link ? '<p>The link shows personal data: please do not forward it.</p>\n' : ''}<p>${escapeHtml(d.fromVasp)} (sent by Tollgate)</p>
</body>
</html>
`;
  return { to: d.to, subject: headerText(withVisibleControls(subject)), text, html };
}

/** A VASP without the protocol is asked to review a transfer to or from one of its customers. */
export function composeInquiryEmail(d: MailCommon): MailMessage {
  return compose(
    d,
    `Travel rule information from ${d.fromVasp}: transaction ${d.transactionRef}`,
    `${d.fromVasp} shares the travel rule information (originator and beneficiary, IVMS101) of a virtual asset transfer that involves a customer of ${d.toVasp}.`,
    facts(d),
    [
      'Open the link over HTTPS to see the originator and beneficiary information.',
      `Please answer the compliance team of ${d.fromVasp}, quoting the reference above: confirm that the beneficiary is your customer, or tell us why the transfer cannot be accepted.`,
    ],
  );
}

/**
 * The transfer a VASP was e-mailed about is cancelled: nothing for it to do, and its link opens
 * nothing more. No link, no personal data, and never why (the operator's reason may say why a
 * customer is suspected: telling would be tipping off).
 */
export function composeCancelEmail(d: Omit<MailCommon, 'link' | 'expiresAt'>): MailMessage {
  return compose(
    d,
    `Travel rule transaction ${d.transactionRef} cancelled by ${d.fromVasp}`,
    `${d.fromVasp} has cancelled the virtual asset transfer below, of which it sent you the travel rule information. It will not take place.`,
    facts(d),
    [
      'There is nothing more to do, and no answer is needed. The link sent with the first e-mail no longer shows the originator and beneficiary information.',
      `For questions, answer the compliance team of ${d.fromVasp}, quoting the reference above.`,
    ],
  );
}

/** The transfer went on chain: the VASP gets its transaction hash. */
export function composeTxHashEmail(d: MailCommon & { txHash: string }): MailMessage {
  return compose(
    d,
    `Travel rule transaction ${d.transactionRef} sent on chain by ${d.fromVasp}`,
    `${d.fromVasp} has sent the virtual asset transfer below on chain. Its travel rule information (originator and beneficiary, IVMS101) is behind the link.`,
    facts(d, [['Transaction hash', d.txHash]]),
    [
      'Use the transaction hash to match the transfer with the deposit you receive, and open the link over HTTPS to see the originator and beneficiary information.',
      `For questions, answer the compliance team of ${d.fromVasp}, quoting the reference above.`,
    ],
  );
}
