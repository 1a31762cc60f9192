import { mailAddress } from '../net/email-address.js';
import { TravelRuleError } from './errors.js';
import { transition, type Actor, type Status } from './lifecycle.js';
import { enqueueMessage } from './sending/queue.js';
import { updateCounterparty } from './store.js';
import { getVasp } from './vasps.js';
import { enqueueTravelRuleWebhook } from './webhooks.js';

import {
  CANCELLATION_SENT,
  REJECTION_SENT,
  SYSTEM,
  moving,
  mustGet,
  reasonOrThrow,
  addressOrThrow,
  type TravelRuleDeps,
  markOtherVaspRejected,
} from './flow.js';

/**
 * The compliance review: an operator accepts, rejects or cancels a transaction, or records the
 * answer of a counterparty that has no protocol (an e-mail reply).
 */

/**
 * The operator accepts a PENDING transaction. Outgoing: it goes to the beneficiary VASP, over
 * TRP when the directory has an endpoint, else by e-mail (the VASP's address, or `email` for a
 * VASP outside the directory). Incoming: the caller is asked for the deposit address.
 */
export async function acceptByOperator(
  deps: TravelRuleDeps,
  operator: string,
  id: string,
  opts: { email?: string } = {},
): Promise<Status> {
  const t = await mustGet(deps.sql, id);
  const actor: Actor = { type: 'operator', id: operator };
  if (t.direction === 'incoming') {
    await moving(() =>
      deps.sql.begin(async (tx) => {
        await transition(tx, { id, from: 'PENDING', to: 'WAITING_ADDRESS_DATA', actor });
        await enqueueTravelRuleWebhook(tx, {
          apiKeyId: t.api_key_id,
          transactionId: id,
          status: 'WAITING_ADDRESS_DATA',
        });
      }),
    );
    return 'WAITING_ADDRESS_DATA';
  }
  const given = opts.email !== undefined ? mailAddress(opts.email) : undefined;
  if (given && !given.ok) throw new TravelRuleError('invalid', `email: ${given.reason}`);
  const vasp = t.counterparty_vasp_id ? await getVasp(deps.sql, t.counterparty_vasp_id) : undefined;
  if (t.status !== 'PENDING')
    throw new TravelRuleError(
      'state',
      `the transaction is ${t.status}; only a PENDING one can be accepted`,
    );
  // A Travel Address given to create_tx decides where the inquiry goes; else the directory.
  if ((t.beneficiary_travel_address || vasp?.trp_endpoint) && !given) {
    await moving(() =>
      deps.sql.begin(async (tx) => {
        await transition(tx, { id, from: 'PENDING', to: 'OTHER_VASP_PENDING', actor });
        await updateCounterparty(tx, id, { protocol: 'trp' });
        await enqueueMessage(tx, {
          transactionId: id,
          kind: 'trp_inquiry',
          maxAttempts: deps.maxAttempts,
        });
      }),
    );
    return 'OTHER_VASP_PENDING';
  }
  const email = (given?.ok ? given.address : undefined) ?? vasp?.email ?? undefined;
  if (!email)
    throw new TravelRuleError(
      'invalid',
      'email: the beneficiary VASP has no TRP endpoint and no e-mail address in the directory; give the address to send the view link to',
    );
  if (!deps.config.smtp_url)
    throw new TravelRuleError(
      'unavailable',
      'no SMTP relay is configured (travel_rule.smtp_url): the e-mail fallback cannot send',
    );
  await moving(() =>
    deps.sql.begin(async (tx) => {
      await transition(tx, { id, from: 'PENDING', to: 'OTHER_VASP_PENDING', actor });
      await updateCounterparty(tx, id, { protocol: 'email', email });
      await enqueueMessage(tx, {
        transactionId: id,
        kind: 'email_inquiry',
        maxAttempts: deps.maxAttempts,
      });
    }),
  );
  return 'OTHER_VASP_PENDING';
}

/** The operator rejects a PENDING transaction, with a reason kept in the history. */
export async function rejectByOperator(
  deps: TravelRuleDeps,
  operator: string,
  id: string,
  reason: unknown,
): Promise<Status> {
  const why = reasonOrThrow(reason);
  const t = await mustGet(deps.sql, id);
  await moving(() =>
    deps.sql.begin(async (tx) => {
      await transition(tx, {
        id,
        from: 'PENDING',
        to: 'REJECTED',
        actor: { type: 'operator', id: operator },
        reason: why,
      });
      if (t.direction === 'incoming' && t.counterparty_protocol === 'trp') {
        await enqueueMessage(tx, {
          transactionId: id,
          kind: 'trp_resolution',
          params: { rejected: REJECTION_SENT },
          maxAttempts: deps.maxAttempts,
        });
      }
    }),
  );
  return 'REJECTED';
}

/**
 * The statuses an operator may cancel from: a transfer waiting on the other VASP (our inquiry
 * unanswered, a deposit's confirmation not coming) or on our backend (the hash, the address).
 */
export const CANCELLABLE_STATUSES: readonly Status[] = [
  'OTHER_VASP_PENDING',
  'WAITING_TX_HASH',
  'WAITING_ADDRESS_DATA',
  'WAITING_FOR_CONFIRMATION',
];

/**
 * The operator stops a transaction that waits on someone else (an unanswering VASP, a caller
 * who cannot give the hash or the deposit address). The other VASP is told when it can be.
 */
export async function cancelByOperator(
  deps: TravelRuleDeps,
  operator: string,
  id: string,
  reason: unknown,
): Promise<Status> {
  const why = reasonOrThrow(reason);
  const t = await mustGet(deps.sql, id);
  if (!CANCELLABLE_STATUSES.includes(t.status)) {
    throw new TravelRuleError(
      'state',
      `the transaction is ${t.status}; only one waiting on the other VASP or on the caller can be cancelled`,
    );
  }
  await moving(() =>
    deps.sql.begin(async (tx) => {
      await transition(tx, {
        id,
        from: t.status,
        to: 'REJECTED',
        actor: { type: 'operator', id: operator },
        reason: why,
      });
      if (t.counterparty_protocol === 'email') {
        // A VASP reached by e-mail is told too, once its inquiry mail reached it or may have
        // (a mail still waiting is simply not sent: the sender drops it now).
        const [told] = await tx`
          select 1 from travelrule_messages
          where transaction_id = ${id} and kind = 'email_inquiry'
            and (status = 'sent' or in_doubt_at is not null)
          limit 1`;
        if (told)
          await enqueueMessage(tx, {
            transactionId: id,
            kind: 'email_cancel',
            maxAttempts: deps.maxAttempts,
          });
        return;
      }
      if (t.counterparty_protocol !== 'trp') return;
      // Approved outgoing: the beneficiary VASP waits for a confirmation; incoming: the originator for a resolution.
      if (t.status === 'WAITING_TX_HASH')
        await enqueueMessage(tx, {
          transactionId: id,
          kind: 'trp_confirmation',
          params: { canceled: CANCELLATION_SENT },
          maxAttempts: deps.maxAttempts,
        });
      // WAITING_FOR_CONFIRMATION: the originator had our approval, or it never reached it; TRP
      // has no message taking an approval back, so none is sent.
      if (t.status === 'WAITING_ADDRESS_DATA')
        await enqueueMessage(tx, {
          transactionId: id,
          kind: 'trp_resolution',
          params: { rejected: REJECTION_SENT },
          maxAttempts: deps.maxAttempts,
        });
    }),
  );
  return 'REJECTED';
}

/**
 * An operator records the answer of a beneficiary VASP reached by e-mail (it has no protocol
 * to answer with). The answer then takes the path of one that came over TRP.
 */
export async function recordAnswerByOperator(
  deps: TravelRuleDeps,
  operator: string,
  id: string,
  answer: { approved: true; address?: string } | { rejected: string },
): Promise<Status> {
  const t = await mustGet(deps.sql, id);
  if (t.counterparty_protocol === 'trp')
    throw new TravelRuleError(
      'state',
      'this beneficiary VASP answers over TRP; its answer cannot be recorded by hand',
    );
  const actor: Actor = { type: 'operator', id: operator };
  if ('rejected' in answer) {
    const why = reasonOrThrow(answer.rejected);
    await moving(() =>
      deps.sql.begin((tx) =>
        markOtherVaspRejected(tx, t, { from: 'OTHER_VASP_PENDING', actor, reason: why }),
      ),
    );
    return 'OTHER_VASP_REJECTED';
  }
  const address =
    answer.address === undefined ? undefined : addressOrThrow(t.network, answer.address, 'address');
  await moving(() =>
    deps.sql.begin(async (tx) => {
      await transition(tx, { id, from: 'OTHER_VASP_PENDING', to: 'OTHER_VASP_APPROVED', actor });
      if (address) await updateCounterparty(tx, id, { beneficiaryAddress: address });
      await enqueueTravelRuleWebhook(tx, {
        apiKeyId: t.api_key_id,
        transactionId: id,
        status: 'OTHER_VASP_APPROVED',
      });
      await transition(tx, { id, to: 'WAITING_TX_HASH', actor: SYSTEM });
    }),
  );
  return 'WAITING_TX_HASH';
}
