import { recordAudit } from '../../audit/index.js';
import type { Context } from 'hono';
import { z } from 'zod';
import { ApiError, apiErrorOf, ErrorNumber } from '../../errors.js';
import { log } from '../../log.js';
import type { AllowList } from '../../net/ssrf.js';
import {
  issueTravelAddress,
  checkOutgoing,
  createOutgoing,
  transactionStatus,
  TravelRuleFields,
  CreateTxBody,
  deleteTravelRuleWebhook,
  getTransaction,
  getTravelRuleWebhook,
  listVasps,
  parseTravelRuleInput,
  readPayload,
  ReceiveTxBody,
  receiveWithoutProtocol,
  renderForbiddenPage,
  renderViewPage,
  renderWithdrawnPage,
  type SealedParties,
  STATUSES,
  sendAddress,
  sendTxHash,
  setTravelRuleWebhook,
  type TravelRuleDeps,
  type TravelRuleKind,
  verifyViewToken,
  VIEW_PAGE_HEADERS,
} from '../../travelrule/index.js';
import { defineRoute, type Route } from '../route.js';
import {
  CHECK_TX_EXAMPLE,
  CREATE_TX_EXAMPLE,
  DELETE_WEBHOOK_EXAMPLE,
  GET_WEBHOOK_EXAMPLE,
  LIST_VASPS_EXAMPLE,
  RECEIVE_WITHOUT_PROTOCOL_EXAMPLE,
  SEND_ADDRESS_EXAMPLE,
  SEND_TX_HASH_EXAMPLE,
  SET_WEBHOOK_EXAMPLE,
  TRAVEL_ADDRESS_EXAMPLE,
  TX_STATUS_EXAMPLE,
} from './travelrule-examples.js';
import { Network, PageQuery, WebhookUrl, envelope } from '../schemas.js';
import { webhookOrThrow } from './streams.js';
import { UUID_RE } from '../../ids.js';
import { personalDataUrlRefusal } from '../../urls.js';

/**
 * The spec's Travel rule endpoints, plus the registration of the caller's travel rule webhook
 * (not in the spec). Error numbers: 5000 for a body that fails validation or a request the
 * transaction's status does not allow (the message says which status it is in and what is
 * needed), 5002 for an invalid wallet address (accountNumber, send_address), 5003 for a
 * transaction_ref this key does not have, 5004 for an invalid webhook URL.
 */

/** A TravelRuleError as the API's answer. */
export function travelRuleApiError(err: unknown): never {
  throw apiErrorOf(err, 'v2');
}

function travelRuleBody(kind: TravelRuleKind) {
  return (raw: unknown) => {
    const parsed = parseTravelRuleInput(raw, kind);
    if (parsed.ok) return parsed.value;
    const number = /accountNumber/.test(parsed.path)
      ? ErrorNumber.INVALID_ADDRESS
      : ErrorNumber.BAD_REQUEST;
    throw new ApiError(400, number, parsed.message);
  };
}

export const VaspRecordSchema = z
  .object({
    uid: z.uuid(),
    name: z.string(),
    legal_name: z.string().nullable(),
    country: z.string().nullable().meta({ description: 'ISO 3166-1 alpha-2, upper case.' }),
    website: z.string(),
  })
  .meta({ id: 'VaspRecord' });

const PartyScreeningRecord = z.object({
  score: z.number().int().min(0).max(100),
  tags: z
    .record(z.string(), z.literal(true))
    .meta({ description: "Tags true on any of the party's addresses." }),
});

export const CheckTxResult = z
  .object({
    valid: z.literal(true),
    network: z.string(),
    screening: z.object({ originator: PartyScreeningRecord, beneficiary: PartyScreeningRecord }),
    threshold: z.array(
      z.object({
        jurisdiction: z.string(),
        currency: z.string(),
        threshold: z.string(),
        result: z.enum(['above', 'below', 'unknown']),
        value: z.string().optional(),
        rate: z.string().optional(),
      }),
    ),
  })
  .meta({ id: 'CheckTxResult' });

export const TxStatusRecord = z
  .object({
    transaction_ref: z.string(),
    direction: z.enum(['outgoing', 'incoming']),
    status: z.enum(STATUSES),
    asset: z.string(),
    network: z.string().nullable(),
    amount: z.string(),
    tx_hash: z.string().nullable(),
    counterparty_vasp_id: z.string().nullable(),
    counterparty_protocol: z.enum(['trp', 'email']).nullable(),
    counterparty_reason: z.string().nullable(),
    counterparty_stated_name: z.string().nullable().meta({
      description:
        "A deposit's over TRP: the legal name the originator VASP's inquiry gave for itself (IVMS101 originatingVASP, its LEGL name), as stated: not checked against the VASP directory (counterparty_vasp_id is the directory's VASP the inquiry came from). Null when it gave none, and for withdrawals.",
    }),
    counterparty_stated_lei: z.string().nullable().meta({
      description:
        'Beside counterparty_stated_name: the LEI the inquiry gave for the originator VASP (nationalIdentifierType LEIX), upper case, when its ISO 17442 check digits hold; null otherwise.',
    }),
    counterparty_transliteration: z.array(z.string()).nullable().meta({
      description:
        "A deposit's over TRP: how the originator VASP's inquiry says the persons' names were transliterated into Latin letters (IVMS101 payloadMetadata.transliterationMethod: arab, aran, armn, cyrs, deva, geor, grek, hani, hebr, kana, kore, thai, othr), as stated, each known code once; null when it named none, and for withdrawals.",
    }),
    beneficiary_address: z.string().nullable().meta({
      description:
        "A withdrawal's: the address the beneficiary VASP approved for the payment (TRP `approved.address`, or the one an operator recorded with the answer of a VASP reached by e-mail). Pay to this one, not to an address known before: it is what the beneficiary VASP approved, and with a Travel Address it may be one your backend never knew. Null until approved (and when an e-mailed VASP's approval was recorded without an address); it does not change once approved. A deposit's: your customer's address the originator VASP was told to pay to (given with send_address, or the account of the Travel Address the inquiry came on); null before that and for a deposit without the protocol.",
    }),
    beneficiary_address_differs: z.boolean().nullable().meta({
      description:
        "A withdrawal's, once beneficiary_address is known: true when it is none of the beneficiary accountNumber given to create_tx (compared without case on EVM networks, exactly on others), false when it is one of them. Not an error (a Travel Address transfer legitimately gets an address the originator did not know), but a payout meant for the account named at create_tx must go to beneficiary_address. Null when there is nothing to compare: not approved yet, approved without an address, or a deposit.",
    }),
    created_at: z.string(),
    updated_at: z.string(),
    history: z.array(
      z.object({
        from_status: z.enum(STATUSES).nullable(),
        status: z.enum(STATUSES),
        actor_type: z.enum(['api_key', 'operator', 'counterparty', 'system']),
        at: z.string(),
      }),
    ),
    messages: z.array(
      z.object({
        kind: z.enum([
          'trp_inquiry',
          'trp_resolution',
          'trp_confirmation',
          'email_inquiry',
          'email_tx_hash',
          'email_cancel',
        ]),
        status: z.enum(['pending', 'sent', 'failed', 'cancelled']),
        attempts: z.number().int(),
        last_status: z.number().int().nullable(),
        last_error: z.string().nullable(),
        sent_at: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'TxStatusRecord' });

/** One transaction_ref everywhere: what create_tx takes, send_tx_hash and the others find. */
const Ref = TravelRuleFields.transaction_ref;

const STATUS_TEXT =
  'Statuses and moves: see the README (Travel Rule). The caller learns of later moves by its travel rule webhook (POST /travelrule/webhook).';

export function travelRuleRoutes(deps: TravelRuleDeps, allow: AllowList): Route[] {
  return [
    defineRoute(
      {
        method: 'post',
        path: '/travelrule/create_tx',
        tag: 'Travel rule',
        summary: 'Create a withdrawal travel rule transaction (PENDING for the operators)',
        description: `Validates the IVMS101 data (an error names the failing path, e.g. originator.persons[0].naturalPerson.dateAndPlaceOfBirth.dateOfBirth), screens every wallet address of both parties with the AML engine, stores the record (personal data encrypted) and queues it for the operators. transaction_ref is unique per API key. beneficiary_vasp_id, when given, must be a uid of list_vasps. When transaction_network is omitted it is derived from the wallet addresses. ${STATUS_TEXT}`,
        body: CreateTxBody,
        parseBody: travelRuleBody('create_tx'),
        response: envelope(z.literal('PENDING')),
        errors: [ErrorNumber.BAD_REQUEST, ErrorNumber.INVALID_ADDRESS],
        example: CREATE_TX_EXAMPLE,
      },
      async ({ body, apiKey }) => {
        const done = await createOutgoing(deps, apiKey.id, body as never).catch(travelRuleApiError);
        return { data: done.status };
      },
    ),

    defineRoute(
      {
        method: 'post',
        path: '/travelrule/check_tx',
        tag: 'Travel rule',
        summary: 'Check a withdrawal as create_tx would, storing nothing',
        description:
          'The completeness check: the same body as create_tx, every rule create_tx applies (IVMS101, addresses, the beneficiary VASP, a transaction_ref new for this key) and the screening of both parties, with the threshold notes. Nothing is stored, queued or sent; the same body then given to create_tx is accepted unless something changed meanwhile (a label, the directory, another transaction with the reference). An addition to the spec.',
        body: CreateTxBody,
        parseBody: travelRuleBody('create_tx'),
        response: envelope(CheckTxResult),
        errors: [ErrorNumber.BAD_REQUEST, ErrorNumber.INVALID_ADDRESS],
        example: CHECK_TX_EXAMPLE,
      },
      async ({ body, apiKey }) => {
        const { network, screening, threshold } = await checkOutgoing(
          deps,
          apiKey.id,
          body as never,
        ).catch(travelRuleApiError);
        return {
          data: {
            valid: true as const,
            network,
            // The documented shape: score and tags (the explanations are the dashboard's).
            screening: {
              originator: { score: screening.originator.score, tags: screening.originator.tags },
              beneficiary: {
                score: screening.beneficiary.score,
                tags: screening.beneficiary.tags,
              },
            },
            threshold,
          },
        };
      },
    ),

    defineRoute(
      {
        method: 'post',
        path: '/travelrule/travel_address',
        tag: 'Travel rule',
        summary: "A Travel Address for one of your customers' deposit addresses",
        description:
          "Not in the spec. The TRP 3.1 Travel Address (ta…) of a customer's deposit address: give it to the customer, who gives it to the sending VASP. An inquiry that arrives on it belongs to this key, its beneficiary account is that address, and it follows the deposit flow (PENDING for the operators, then the WAITING_ADDRESS_DATA webhook). The same key, network and address always give the same Travel Address. 5002 for an address not valid on the network.",
        body: z.object({ network: Network, address: z.string().min(1).max(256) }),
        response: envelope(
          z
            .object({
              travel_address: z.string(),
              url: z.string(),
              network: z.string(),
              address: z.string(),
            })
            .meta({ id: 'TravelAddress' }),
        ),
        fieldErrors: { address: ErrorNumber.INVALID_ADDRESS },
        errors: [ErrorNumber.BAD_REQUEST, ErrorNumber.INVALID_ADDRESS],
        example: TRAVEL_ADDRESS_EXAMPLE,
      },
      async ({ body, apiKey }) => ({
        data: await issueTravelAddress(deps, apiKey.id, body.network, body.address).catch(
          travelRuleApiError,
        ),
      }),
    ),

    defineRoute(
      {
        method: 'get',
        path: '/travelrule/tx_status',
        tag: 'Travel rule',
        summary: "A transaction's status and history, by transaction_ref",
        description:
          "Where a transaction of this key stands: its status, each status it took (who moved it: api_key, operator, counterparty or system) and how its messages to the other VASP fared (attempts, the other side's last HTTP status and error). No personal data, and not the operators' reasons (internal to the compliance team); what the other VASP said when it rejected or cancelled is counterparty_reason. For a withdrawal, beneficiary_address is the address the beneficiary VASP approved (pay to it), and beneficiary_address_differs says whether it is another than the beneficiary accountNumber of create_tx. 5003 when this key has no transaction with the reference. An addition to the spec.",
        query: z.object({ transaction_ref: Ref }),
        response: envelope(TxStatusRecord),
        errors: [ErrorNumber.BAD_REQUEST, ErrorNumber.NOT_FOUND_FOR_KEY],
        example: TX_STATUS_EXAMPLE,
      },
      async ({ query, apiKey }) => {
        const view = await transactionStatus(
          deps.sql,
          deps.keyring,
          apiKey.id,
          query.transaction_ref,
        ).catch(travelRuleApiError);
        return { data: view };
      },
    ),

    defineRoute(
      {
        method: 'post',
        path: '/travelrule/send_tx_hash',
        tag: 'Travel rule',
        summary: 'Send the on-chain hash of an approved withdrawal',
        description:
          "Taken once the beneficiary VASP approved (the OTHER_VASP_APPROVED webhook; status WAITING_TX_HASH). The hash goes to the beneficiary VASP (TRP confirmation, or e-mail). The hash must have its network's format (EVM: 0x and 64 hex digits; Bitcoin family: 64 hex digits). The same hash again (a retry after a lost answer, even at once) is answered OK and changes nothing; another hash is refused.",
        body: z.object({ transaction_ref: Ref, transaction_hash: z.string().min(1).max(200) }),
        response: envelope(z.null()),
        errors: [ErrorNumber.BAD_REQUEST, ErrorNumber.NOT_FOUND_FOR_KEY],
        example: SEND_TX_HASH_EXAMPLE,
      },
      async ({ body, apiKey }) => {
        await sendTxHash(deps, apiKey.id, body.transaction_ref, body.transaction_hash).catch(
          travelRuleApiError,
        );
        return { data: null };
      },
    ),

    defineRoute(
      {
        method: 'get',
        path: '/travelrule/list_vasps',
        tag: 'Travel rule',
        summary: 'List the VASPs of the directory',
        description:
          'The directory is seeded from config/vasps.json and managed with `tollgate vasps`. `page` defaults to 1 and `limit` to 50 (1 to 100); ordered by name.',
        query: z.object(PageQuery(false)),
        response: envelope(z.array(VaspRecordSchema), true),
        errors: [ErrorNumber.BAD_REQUEST],
        example: LIST_VASPS_EXAMPLE,
      },
      async ({ query }) => {
        const { rows, total } = await listVasps(deps.sql, query.page, query.limit);
        return { data: rows, page_count: Math.ceil(total / query.limit) };
      },
    ),

    defineRoute(
      {
        method: 'post',
        path: '/travelrule/send_address',
        tag: 'Travel rule',
        summary: 'Send the deposit address for an incoming transfer',
        description:
          'Answers the WAITING_ADDRESS_DATA webhook: the wallet address of the beneficiary (your customer) for a deposit that came over the protocol and an operator accepted. The originator VASP then gets the approval with this address. The same address again (a retry after a lost answer, even at once) is answered OK and changes nothing; another address is refused.',
        body: z.object({ transaction_ref: Ref, address: z.string().min(1).max(256) }),
        response: envelope(z.null()),
        fieldErrors: { address: ErrorNumber.INVALID_ADDRESS },
        errors: [
          ErrorNumber.BAD_REQUEST,
          ErrorNumber.INVALID_ADDRESS,
          ErrorNumber.NOT_FOUND_FOR_KEY,
        ],
        example: SEND_ADDRESS_EXAMPLE,
      },
      async ({ body, apiKey }) => {
        await sendAddress(deps, apiKey.id, body.transaction_ref, body.address).catch(
          travelRuleApiError,
        );
        return { data: null };
      },
    ),

    defineRoute(
      {
        method: 'post',
        path: '/travelrule/receive_tx_without_protocol',
        tag: 'Travel rule',
        summary: 'Record a deposit whose originator VASP has no travel rule protocol (APPROVED)',
        description:
          'The same input as create_tx plus transaction_hash and created_at (ISO 8601), without beneficiary_vasp_id. The record is screened and listed for the operators; its status is APPROVED (final).',
        body: ReceiveTxBody,
        parseBody: travelRuleBody('receive_without_protocol'),
        response: envelope(z.literal('APPROVED')),
        errors: [ErrorNumber.BAD_REQUEST, ErrorNumber.INVALID_ADDRESS],
        example: RECEIVE_WITHOUT_PROTOCOL_EXAMPLE,
      },
      async ({ body, apiKey }) => {
        const done = await receiveWithoutProtocol(deps, apiKey.id, body as never).catch(
          travelRuleApiError,
        );
        return { data: done.status };
      },
    ),

    defineRoute(
      {
        method: 'post',
        path: '/travelrule/webhook',
        tag: 'Travel rule',
        summary: "Register this key's travel rule webhook",
        description:
          "Not in the spec. The URL (https: the webhooks carry personal data) receives the travel rule webhooks (OTHER_VASP_APPROVED, OTHER_VASP_REJECTED, WAITING_ADDRESS_DATA, TRANSACTION_CONFIRMED), signed like the stream webhooks with the key's webhook secret. Without one, the configured default (travel_rule.webhook_url) is used; with neither, webhooks wait (retried with backoff) until one is registered.",
        body: z.object({ url: WebhookUrl }),
        response: envelope(z.null()),
        fieldErrors: { url: ErrorNumber.INVALID_WEBHOOK },
        errors: [ErrorNumber.INVALID_WEBHOOK],
        example: SET_WEBHOOK_EXAMPLE,
      },
      async ({ body, apiKey }) => {
        const url = await webhookOrThrow(body.url, allow, 'url');
        const refusal = personalDataUrlRefusal(new URL(url), deps.config.allow_http_loopback);
        if (refusal)
          throw new ApiError(400, ErrorNumber.INVALID_WEBHOOK, `Invalid webhook: url ${refusal}.`);
        await setTravelRuleWebhook(deps.sql, apiKey.id, url);
        return { data: null };
      },
    ),

    defineRoute(
      {
        method: 'get',
        path: '/travelrule/webhook',
        tag: 'Travel rule',
        summary: "This key's travel rule webhook",
        description:
          '`source` is "key" for a URL registered by this key, "default" for the configured default, null when there is none.',
        response: envelope(
          z.object({ url: z.string().nullable(), source: z.enum(['key', 'default']).nullable() }),
        ),
        errors: [],
        example: GET_WEBHOOK_EXAMPLE,
      },
      async ({ apiKey }) => {
        const own = await getTravelRuleWebhook(deps.sql, apiKey.id);
        if (own) return { data: { url: own, source: 'key' } };
        const fallback = deps.config.webhook_url;
        return { data: { url: fallback ?? null, source: fallback ? 'default' : null } };
      },
    ),

    defineRoute(
      {
        method: 'delete',
        path: '/travelrule/webhook',
        tag: 'Travel rule',
        summary: "Remove this key's travel rule webhook (the configured default applies again)",
        response: envelope(z.null()),
        errors: [ErrorNumber.NOT_FOUND_FOR_KEY],
        example: DELETE_WEBHOOK_EXAMPLE,
      },
      async ({ apiKey }) => {
        if (!(await deleteTravelRuleWebhook(deps.sql, apiKey.id)))
          throw new ApiError(
            400,
            ErrorNumber.NOT_FOUND_FOR_KEY,
            'This key has no travel rule webhook of its own.',
          );
        return { data: null };
      },
    ),
  ];
}

/**
 * GET /v2/travelrule/transaction/<uuid>?q=<token>: the page an e-mailed VASP opens. No API key:
 * the token (an HMAC of the id and an expiry, src/travelrule/view-link.ts) is the credential. A
 * wrong, expired or missing token, or an unknown id, gets 403 and a page that shows nothing; a
 * transaction cancelled or rejected since, 410 and a page that says so, without its persons.
 */
export function viewPageHandler(deps: TravelRuleDeps) {
  return async (c: Context) => {
    for (const [name, value] of Object.entries(VIEW_PAGE_HEADERS)) c.header(name, value);
    const id = c.req.param('id') ?? '';
    const token = c.req.query('q') ?? '';
    const verdict =
      UUID_RE.test(id) && token
        ? verifyViewToken(deps.keyring, id.toLowerCase(), token)
        : 'invalid';
    if (verdict !== 'ok') return c.html(renderForbiddenPage(verdict), 403);
    const t = await getTransaction(deps.sql, id.toLowerCase());
    if (!t) return c.html(renderForbiddenPage('invalid'), 403);
    // Cancelled or rejected: nobody needs its persons any more, so the link shows them no longer.
    if (t.status === 'REJECTED' || t.status === 'OTHER_VASP_REJECTED') {
      log.info(
        { travelrule_id: t.id, status: t.status },
        'travel rule view link opened after the transaction ended: nothing shown',
      );
      return c.html(renderWithdrawnPage(t.transaction_ref, deps.config.vasp_name), 410);
    }
    const parties = (await readPayload(deps.sql, deps.keyring, t.id)) as SealedParties;
    const expiresAt = new Date(Number(token.split('.')[0]) * 1000);
    // A read of personal data: audited with the reference, never the link's token.
    await recordAudit(deps.sql, {
      actor: 'view_link',
      action: 'travelrule_view_link',
      target: t.id,
      details: { transaction_ref: t.transaction_ref },
    });
    log.info({ travelrule_id: t.id }, 'travel rule transaction viewed by link');
    return c.html(
      renderViewPage({
        transactionRef: t.transaction_ref,
        direction: t.direction,
        status: t.status,
        asset: t.asset,
        network: t.network,
        amount: t.amount,
        createdAt: t.created_at,
        fromVasp: deps.config.vasp_name,
        originator: parties.originator,
        beneficiary: parties.beneficiary,
        txHash: t.tx_hash,
        expiresAt,
      }),
      200,
    );
  };
}
