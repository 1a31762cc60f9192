import type { Sql, TransactionSql } from '../../db/index.js';
import { PermanentError, RetryableError, isRetryable } from '../../errors.js';
import { log } from '../../log.js';
import { retryAfterAnswerS, retryDelayS } from '../../net/retry-after.js';
import {
  composeCancelEmail,
  composeInquiryEmail,
  composeTxHashEmail,
  MailInDoubtError,
  messageIdFor,
  type Mailer,
} from './email.js';
import {
  getTransaction,
  readPayload,
  type TravelRuleTransaction,
  updateCounterparty,
} from '../store.js';
import { IllegalTransitionError, StatusChangedError } from '../lifecycle.js';
import { type TrpAnswer, TrpRefused, TrpRetryable, trpPost } from '../trp/client.js';
import { callbackToken } from '../callback-token.js';
import { trpAsset } from '../trp/assets.js';
import { decodeTravelAddress } from '../trp/travel-address.js';
import { buildInquiry, parseResolution } from '../trp/messages.js';
import { getVasp } from '../vasps.js';
import { createViewToken, viewLinkUrl } from '../view-link.js';
import type { SealedParties } from '../webhooks.js';
import { type MessageRow, requeueMessage, sendsIn } from './queue.js';
import { MAX_REASON_CHARS, markOtherVaspRejected, SYSTEM, type TravelRuleDeps } from '../flow.js';
import { applyResolution } from '../withdrawal.js';

/**
 * Messages to the other VASP: TRP inquiry, resolution and confirmation, and the e-mails of the
 * fallback. Each is a travelrule_messages row written in the same database transaction as the
 * status change that calls for it, and a graphile-worker job (travelrule_send) that sends it,
 * retried with backoff. The request-identifier is the row's, the same on every attempt, so the
 * other side can recognise a retry. The personal data is read from the sealed payload at send
 * time; the row holds only non-personal parameters.
 */

/** A message as the sender reads it: with when an attempt first went out whole unanswered. */
type SenderRow = MessageRow & { in_doubt_at: Date | null };

async function loadMessage(sql: Sql, id: string): Promise<SenderRow | undefined> {
  const [row] = await sql<SenderRow[]>`
    select id, transaction_id, kind, params, request_id, status, attempts, last_status, last_error, created_at, sent_at,
      in_doubt_at
    from travelrule_messages where id = ${id}`;
  return row ? { ...row, id: String(row.id) } : undefined;
}

/** `inDoubt`: this attempt went out whole and its answer never came (the peer may have it). */
async function recordAttempt(
  sql: Sql | TransactionSql,
  id: string,
  outcome: MessageRow['status'],
  lastStatus: number | null,
  error: string | null,
  inDoubt = false,
): Promise<void> {
  await sql`
    update travelrule_messages set attempts = attempts + 1, status = ${outcome}, last_status = ${lastStatus},
      last_error = ${error}, sent_at = case when ${outcome} = 'sent' then now() else sent_at end,
      in_doubt_at = case when ${inDoubt} then coalesce(in_doubt_at, now()) else in_doubt_at end
    where id = ${id}`;
}

export interface SenderDeps extends TravelRuleDeps {
  mailer?: Mailer;
  /** Extra CA certificates trusted for TRP endpoints (PEM). */
  trpCa?: string;
  /** This VASP's TLS client certificate and key for TRP (mutual TLS), PEM. */
  trpClientCert?: { cert: string; key: string };
}

function resolutionsUrl(deps: SenderDeps, t: TravelRuleTransaction): string {
  return `${deps.trpUrl}/trp/v3/resolutions/${callbackToken(deps.keyring, t.id)}`;
}

function confirmationsUrl(deps: SenderDeps, t: TravelRuleTransaction): string {
  return `${deps.trpUrl}/trp/v3/confirmations/${callbackToken(deps.keyring, t.id)}`;
}

/**
 * Whether the other VASP answered a message over TRP after it was written (a move of its own on
 * the transfer), and if so records the message sent, at that answer. An attempt whose answer
 * never came back (a timeout, a cut connection, this worker killed) leaves the message pending
 * while the other side may have it; when the transfer then moved on because the other side
 * acted on it (its resolution to our inquiry, its confirmation to our approval, which needs the
 * callback only that approval carries), the message arrived: it is not "not sent". No move of
 * the other VASP writes a message, so a move after the message's own transaction answers it or a
 * later one. (An e-mail's answer, recorded by an operator, proves nothing of the e-mail: the VASP
 * may have been reached by phone.)
 */
async function answeredSince(sql: Sql, messageId: string): Promise<boolean> {
  const rows = await sql`
    update travelrule_messages m set status = 'sent', last_error = null, sent_at = a.at
    from (
      select min(h.at) as at from travelrule_history h, travelrule_messages mm
      where mm.id = ${messageId} and h.transaction_id = mm.transaction_id and h.at > mm.created_at
        and h.actor_type = 'counterparty'
    ) a
    where m.id = ${messageId} and m.status = 'pending' and a.at is not null
    returning m.id`;
  return rows.length > 0;
}

/**
 * Sends one message (one attempt). Throws RetryableError when a later attempt can help, so
 * graphile-worker backs off; a permanent refusal is recorded as failed and shown to operators.
 */
export async function sendMessage(
  deps: SenderDeps,
  messageId: string,
  job: { attempts: number; max_attempts: number },
): Promise<void> {
  const m = await loadMessage(deps.sql, messageId);
  if (m?.status !== 'pending') return;
  const t = await getTransaction(deps.sql, m.transaction_id);
  if (!t) return;
  const ctx = { message_id: m.id, travelrule_id: t.id, kind: m.kind, request_id: m.request_id };
  if (!sendsIn(m).includes(t.status)) {
    if (await answeredSince(deps.sql, m.id)) {
      log.info(
        { ...ctx, status: t.status },
        'travel rule message delivered: the other VASP has answered it',
      );
      return;
    }
    // Not "not sent" when an attempt went out whole unanswered: the other VASP may have it.
    const doubt = m.in_doubt_at
      ? `; an attempt at ${m.in_doubt_at.toISOString()} went out whole and its answer was lost: the other VASP may have it`
      : '';
    await recordAttempt(
      deps.sql,
      m.id,
      'cancelled',
      null,
      `not sent${doubt ? ' again' : ''}: the transaction is ${t.status}${doubt}`,
    );
    return void log.info(
      { ...ctx, status: t.status, in_doubt: Boolean(doubt) },
      'travel rule message not sent: the transaction moved on',
    );
  }
  const lastTry = job.attempts >= job.max_attempts;
  try {
    if (m.kind === 'email_inquiry' || m.kind === 'email_tx_hash' || m.kind === 'email_cancel')
      await sendEmail(deps, m, t);
    else await sendTrp(deps, m, t);
  } catch (err) {
    const retryable = isRetryable(err);
    const status =
      err instanceof TrpRetryable || err instanceof TrpRefused ? (err.status ?? null) : null;
    const reason = err instanceof Error ? err.message.slice(0, 300) : String(err);
    // For logs: without a peer's or a relay's own words, which may echo the persons or a view
    // link (TrpRefused.forLog, classifySendError).
    const forLog = (err as { forLog?: unknown } | null)?.forLog;
    const logged = typeof forLog === 'string' ? forLog.slice(0, 300) : reason;
    const inDoubt = err instanceof TrpRetryable ? err.inDoubt : err instanceof MailInDoubtError;
    // graphile-worker waits e^attempts s before the next attempt; a peer's 429 or 503 may ask
    // for longer (Retry-After): then the next attempt is a job of its own, set for that time.
    const backoffS = retryDelayS(job.attempts);
    const waitS =
      err instanceof TrpRetryable ? retryAfterAnswerS(job.attempts, err.retryAfterS ?? null) : 0;
    if (retryable && !lastTry && waitS > backoffS) {
      await deps.sql.begin(async (tx) => {
        await recordAttempt(tx, m.id, 'pending', status, reason, inDoubt);
        await requeueMessage(tx, m.id, {
          attemptsLeft: job.max_attempts - job.attempts,
          afterS: waitS,
        });
      });
      return void log.warn(
        { ...ctx, error: logged, attempt: m.attempts + 1, retry_in_s: Math.round(waitS) },
        'travel rule message failed; will retry when the other VASP asked',
      );
    }
    await recordAttempt(
      deps.sql,
      m.id,
      retryable && !lastTry ? 'pending' : 'failed',
      status,
      reason,
      inDoubt,
    );
    if (retryable && !lastTry) {
      log.warn(
        {
          ...ctx,
          error: logged,
          attempt: m.attempts + 1,
          attempts_left: job.max_attempts - job.attempts,
          retry_in_s: Math.round(backoffS),
        },
        'travel rule message failed; will retry',
      );
      throw new RetryableError(`travel rule ${m.kind} failed: ${logged}`);
    }
    if (m.kind === 'trp_inquiry' || m.kind === 'email_inquiry')
      await inquiryUndeliverable(
        deps,
        t,
        m.kind === 'email_inquiry' ? 'e-mail' : 'inquiry',
        status,
        reason,
        m.in_doubt_at ?? (inDoubt ? new Date() : null),
      );
    if (m.kind === 'trp_resolution' || m.kind === 'trp_confirmation')
      await answerUndeliverable(deps, t, m, reason);
    return void log.warn(
      { ...ctx, error: logged, status },
      retryable
        ? 'travel rule message failed; attempts used up'
        : 'travel rule message refused; not retried',
    );
  }
  if (m.kind === 'trp_resolution' || m.kind === 'trp_confirmation')
    await answerDelivered(deps.sql, t, m);
  log.info(ctx, 'travel rule message sent');
}

/** What tx_status says when an answer of ours did not reach the other VASP. */
function undeliverableWhat(m: MessageRow): string {
  return m.kind === 'trp_resolution'
    ? m.params.approved !== undefined
      ? 'our approval did not reach the originator VASP, so it cannot confirm the transfer'
      : 'our rejection did not reach the originator VASP'
    : m.params.txid !== undefined
      ? 'the transaction hash did not reach the beneficiary VASP'
      : 'our cancellation did not reach the beneficiary VASP';
}

/**
 * An answer of ours that had failed reached the other VASP after all (an operator sent it again):
 * tx_status no longer says it did not.
 */
async function answerDelivered(sql: Sql, t: TravelRuleTransaction, m: MessageRow): Promise<void> {
  await sql`update travelrule_transactions set counterparty_reason = null
    where id = ${t.id} and starts_with(counterparty_reason, ${`${undeliverableWhat(m)}: `})`;
}

/**
 * Our answer to the other VASP (a resolution of its inquiry, a confirmation or cancellation of
 * ours) was refused, or never got through: the transfer's status stays what we decided, and
 * tx_status (counterparty_reason) and the transaction's page say that the other VASP does not
 * know it (until an operator sends it again and it gets through: answerDelivered). A deposit
 * whose approval did not reach its originator waits for a confirmation that cannot come: an
 * operator sends it again, or cancels the transfer (README, Travel Rule).
 */
async function answerUndeliverable(
  deps: SenderDeps,
  t: TravelRuleTransaction,
  m: MessageRow,
  reason: string,
): Promise<void> {
  // A cancellation answering a late approval of a transfer whose inquiry did not go through
  // (withdrawal.ts, cancelLateApproval): tx_status keeps why the transfer ended, the message's
  // own record says why it did not reach.
  if (t.status === 'OTHER_VASP_REJECTED') return;
  await updateCounterparty(deps.sql, t.id, {
    reason: `${undeliverableWhat(m)}: ${reason}`.slice(0, MAX_REASON_CHARS),
  });
}

/**
 * The beneficiary VASP refused our inquiry, or it never got through (by TRP, or the e-mail of the
 * fallback, refused or never taken by the relay): the withdrawal cannot go on as it is. It moves
 * to OTHER_VASP_REJECTED (the caller's webhook; tx_status says why), unless it moved on meanwhile
 * (an operator cancelled it, or recorded an e-mailed VASP's answer). `inDoubtSince`: an attempt
 * went out whole and its answer was lost, so the beneficiary VASP may have the inquiry (and its
 * personal data, or the link to them): the reason says so rather than "did not reach".
 */
async function inquiryUndeliverable(
  deps: SenderDeps,
  t: TravelRuleTransaction,
  what: 'inquiry' | 'e-mail',
  status: number | null,
  reason: string,
  inDoubtSince: Date | null,
): Promise<void> {
  const last = `${status !== null ? `HTTP ${status}: ` : ''}${reason}`;
  const why = (
    inDoubtSince
      ? `no answer to the ${what} from the beneficiary VASP, which may have it (an attempt at ${inDoubtSince.toISOString()} went out whole and its answer was lost); the last attempt: ${last}`
      : `the ${what} did not reach the beneficiary VASP: ${last}`
  ).slice(0, MAX_REASON_CHARS);
  try {
    await deps.sql.begin((tx) =>
      markOtherVaspRejected(tx, t, { from: 'OTHER_VASP_PENDING', actor: SYSTEM, reason: why }),
    );
  } catch (err) {
    if (err instanceof IllegalTransitionError || err instanceof StatusChangedError) return;
    throw err;
  }
}

async function sendTrp(deps: SenderDeps, m: MessageRow, t: TravelRuleTransaction): Promise<void> {
  const vasp = t.counterparty_vasp_id ? await getVasp(deps.sql, t.counterparty_vasp_id) : undefined;
  const opts = {
    timeoutMs: deps.config.trp_timeout_ms,
    allow: deps.allow,
    ca: deps.trpCa,
    clientCert: deps.trpClientCert,
    // Every message to a VASP goes only to a server presenting a certificate pinned for it.
    pins: vasp?.trp_tls_fingerprints,
    requestId: m.request_id,
    allowHttpLoopback: deps.config.allow_http_loopback,
  };
  if (m.kind === 'trp_inquiry') {
    // A Travel Address given to create_tx, else the directory's endpoint (a URL or an address).
    const endpoint = t.beneficiary_travel_address ?? vasp?.trp_endpoint;
    if (!endpoint) throw new PermanentError('the beneficiary VASP has no TRP endpoint any more');
    const target = decodeTravelAddress(endpoint);
    if (!target.ok) throw new PermanentError(`the beneficiary's TRP address ${target.reason}`);
    const parties = (await readPayload(deps.sql, deps.keyring, t.id)) as SealedParties;
    const body = buildInquiry({
      asset: trpAsset(
        { network: t.network ?? '', asset: t.asset },
        deps.dtis,
        vasp?.trp_slip0044 ?? 'number',
      ),
      amount: t.amount,
      callback: resolutionsUrl(deps, t),
      originator: parties.originator,
      beneficiary: parties.beneficiary,
      vaspName: deps.config.vasp_name,
      vaspCountry: deps.config.vasp_country,
      vaspLei: deps.config.vasp_lei,
    });
    const res = await trpPost(target.url.href, body, opts);
    // The resolution may come in the response (synchronous) or later to the callback. One in the
    // response that cannot be read or taken is said on the message (tx_status, the operations
    // pages), and the transfer waits for the callback: the peer has the inquiry.
    const notTaken = await takeInlineResolution(deps, t, res);
    await recordAttempt(
      deps.sql,
      m.id,
      'sent',
      res.status,
      notTaken ? `sent; ${notTaken}; waiting for the resolution on the callback` : null,
    );
    if (notTaken)
      log.warn(
        { message_id: m.id, travelrule_id: t.id, status: res.status, error: notTaken },
        "TRP inquiry taken, its answer's resolution not; waiting for the callback",
      );
    return;
  }
  if (!t.counterparty_callback) throw new PermanentError('no callback URL of the other VASP');
  let body: Record<string, unknown>;
  if (m.kind === 'trp_resolution') {
    body = m.params.approved
      ? { approved: { address: t.beneficiary_address, callback: confirmationsUrl(deps, t) } }
      : { rejected: m.params.rejected };
  } else {
    body = m.params.txid !== undefined ? { txid: m.params.txid } : { canceled: m.params.canceled };
  }
  const res = await trpPost(t.counterparty_callback, body, opts);
  await recordAttempt(
    deps.sql,
    m.id,
    'sent',
    res.status,
    res.unread ? `sent; ${res.unread}, not read` : null,
  );
}

/**
 * The resolution in an inquiry's answer, applied; or why it was not: an answer not read
 * (TrpAnswer.unread), a body that is no resolution, or one the transfer cannot take (an address
 * not of its network, a callback not allowed). Only the reason's words of our own are returned:
 * TravelRuleError messages name the field, never a person.
 */
async function takeInlineResolution(
  deps: SenderDeps,
  t: TravelRuleTransaction,
  res: TrpAnswer,
): Promise<string | undefined> {
  if (res.unread) return `${res.unread}, not read`;
  if (res.body === null || res.body === undefined) return undefined;
  const parsed = parseResolution(res.body);
  if (!parsed.ok) return `the resolution in its answer is not one: ${parsed.message}`;
  const fresh = await getTransaction(deps.sql, t.id);
  if (!fresh) return undefined;
  try {
    await applyResolution(deps, fresh, parsed.value);
    return undefined;
  } catch (err) {
    return `the resolution in its answer was not taken: ${err instanceof Error ? err.message : String(err)}`.slice(
      0,
      250,
    );
  }
}

/**
 * When an e-mail's view link expires: its validity counted from when the e-mail was queued, so
 * every attempt of one e-mail carries the same link (a copy sent again after a relay's lost
 * answer made a second link that also opened the data); unless less than half of it would be
 * left at this attempt (the relay out of reach for days), then counted from now.
 */
export function linkExpiry(queuedAt: Date, ttlHours: number, now: Date): Date {
  const ttl = ttlHours * 3_600_000;
  const fromQueued = queuedAt.getTime() + ttl;
  return new Date(fromQueued - now.getTime() >= ttl / 2 ? fromQueued : now.getTime() + ttl);
}

async function sendEmail(deps: SenderDeps, m: MessageRow, t: TravelRuleTransaction): Promise<void> {
  if (!deps.mailer) throw new RetryableError('no SMTP relay configured (travel_rule.smtp_url)');
  if (!t.counterparty_email) throw new PermanentError('no e-mail address of the other VASP');
  const vasp = t.counterparty_vasp_id ? await getVasp(deps.sql, t.counterparty_vasp_id) : undefined;
  const transfer = {
    to: t.counterparty_email,
    fromVasp: deps.config.vasp_name,
    toVasp: vasp?.name ?? t.counterparty_email,
    transactionRef: t.transaction_ref,
    asset: t.asset,
    network: t.network,
    amount: t.amount,
  };
  // The cancellation carries no link: the link would open nothing more.
  const withLink = () => {
    const expiresAt = linkExpiry(m.created_at, deps.config.view_link_ttl_hours, new Date());
    const link = viewLinkUrl(deps.publicUrl, t.id, createViewToken(deps.keyring, t.id, expiresAt));
    return { ...transfer, link, expiresAt };
  };
  const mail =
    m.kind === 'email_cancel'
      ? composeCancelEmail(transfer)
      : m.kind === 'email_inquiry'
        ? composeInquiryEmail(withLink())
        : composeTxHashEmail({ ...withLink(), txHash: m.params.txid ?? t.tx_hash ?? '' });
  const messageId = messageIdFor(m.id, t.id, deps.config.smtp_from);
  await deps.mailer.send({ ...mail, messageId });
  await recordAttempt(deps.sql, m.id, 'sent', null, null);
}
