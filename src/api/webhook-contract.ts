import { z } from 'zod';
import { LiveAmlBody, sequence, StreamBitcoinBody, StreamEvmBody } from './webhook-bodies.js';
import {
  liveAmlExample,
  retractionExample,
  streamBitcoinExample,
  streamEvmExample,
  travelRuleExample,
} from './webhook-examples.js';
import { TravelRuleBody } from './webhook-travelrule.js';

/**
 * The webhooks the appliance sends, for the OpenAPI document's `webhooks`: each body as zod (the
 * JSON exactly as sent, output shape) with a realistic example, and the headers every POST
 * carries. Pure data: importing it touches no database and reads no environment. Tests check
 * every body a real appliance sends against these schemas with unknown keys refused at every
 * level (test/helpers/webhook-contract.ts).
 */

export interface WebhookSpec {
  /** Key under the document's `webhooks` and its operationId, e.g. 'streamEvm'. */
  name: string;
  summary: string;
  /** Markdown: when it is sent, what the receiver must do, retries and ordering (README pointers). */
  description: string;
  /** The JSON body exactly as sent (output shape). */
  body: z.ZodType;
  /** A realistic body; passes body.parse. */
  example: unknown;
}

/** What every webhook POST carries (src/webhooks/sign.ts webhookHeaders, src/webhooks/post.ts). */
export const WEBHOOK_HEADERS: readonly { name: string; description: string }[] = [
  { name: 'content-type', description: '`application/json` (UTF-8).' },
  { name: 'content-length', description: 'Length of the body in bytes.' },
  { name: 'user-agent', description: '`Tollgate-Webhooks/1`.' },
  {
    name: 'webhook-id',
    description:
      '`msg_<uuid>` (the event\u2019s id): the same on every retry and redelivery of one event, and one body per id. Deduplicate on it. A stream, live AML or retraction event\u2019s id is derived from what it is (subscription, network, transaction, block, confirmed, removed: a name-based UUID), so the event keeps its webhook-id even when Tollgate\u2019s database loses its last commits (a failover to a replica that was behind, a restore) and the event is written again (its `sequence` numbered anew).',
  },
  { name: 'webhook-timestamp', description: 'Unix seconds of this attempt.' },
  {
    name: 'webhook-signature',
    description:
      "`v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` (the three joined with dots), keyed with the base64-decoded part of the API key's `whsec_` secret after the prefix (Standard Webhooks). During a secret rotation's overlap (POST /v2/webhook/rotate_secret) two space-separated signatures, `v1,<new> v1,<old>`: accept the webhook when one of them verifies (Standard Webhooks libraries do). Verify it on the raw body, and refuse a timestamp older than a few minutes.",
  },
];

const DELIVERY =
  'Signed per [Standard Webhooks](https://www.standardwebhooks.com) with the API key\u2019s `whsec_` secret (README, "Delivery and signatures"). Answer 2xx within 10 s (`TOLLGATE_WEBHOOK_TIMEOUT_MS`). A 5xx, 408, 429, timeout or network error is retried with exponential backoff (about 3 s, 7 s, 20 s, \u2026 capped at about 6 hours) up to 25 attempts (`TOLLGATE_WEBHOOK_MAX_ATTEMPTS`), then given up and listed for the operators, who can redeliver it; a 3xx (redirects are not followed) or another 4xx is not retried. At least once: a repeat carries the same `webhook-id` and the same bytes, so deduplicate on `webhook-id`.';

const CHAIN_DELIVERY = `${DELIVERY} Order: for one subscription and one transaction, the unconfirmed delivery is settled before the confirmed one is sent, and a retraction comes after both; different transactions may arrive in any order, so order by \`sequence\` (README, "What you can rely on").`;

const { sequence: _evmSequence, ...evmFields } = StreamEvmBody.shape;
const { sequence: _utxoSequence, ...utxoFields } = StreamBitcoinBody.shape;
const { sequence: _amlSequence, ...amlFields } = LiveAmlBody.shape;

const retractionSequence = sequence.meta({
  description:
    'The retraction\u2019s own sequence, higher than that of every event it retracts; always the first field.',
});
const removed = z.literal(true).meta({
  description:
    'Always true, and the second field: the transaction\u2019s block was reorganised away.',
});
const notConfirmed = z.literal(false).meta({
  description: 'Always false in a retraction, whatever the retracted delivery said.',
});

const RetractionBody = z.union([
  z.object({ sequence: retractionSequence, removed, ...evmFields, confirmed: notConfirmed }).meta({
    description: 'A retracted EVM stream webhook: its body, with removed and confirmed false.',
  }),
  z.object({ sequence: retractionSequence, removed, ...utxoFields, confirmed: notConfirmed }).meta({
    description:
      'A retracted Bitcoin-family stream webhook: its body, with removed and confirmed false.',
  }),
  z
    .object({ sequence: retractionSequence, removed, ...amlFields })
    .meta({ description: 'A retracted live AML webhook: its body, with removed.' }),
]);

const TestBody = z.object({
  type: z.literal('test'),
  test: z.literal(true).meta({ description: 'Always true: this webhook carries no event.' }),
  kind: z
    .enum(['stream', 'aml', 'travelrule'])
    .meta({ description: 'The kind of receiver it was sent to.' }),
  address: z
    .string()
    .nullable()
    .meta({ description: 'The subscription\u2019s address; null for a URL or travel rule test.' }),
  created_at: z.iso.datetime(),
  message: z.string(),
});

const isoOrNull = z.iso.datetime().nullable();
const EndpointDisabledBody = z.object({
  type: z.literal('webhook.endpoint_disabled'),
  timestamp: z.iso.datetime().meta({ description: 'When the endpoint was disabled.' }),
  data: z.object({
    endpoint_id: z.string(),
    api_key_id: z.string(),
    api_key_name: z.string(),
    host: z.string().meta({
      description:
        'host[:port] of the endpoint\u2019s URL (never its path or query, which may carry a credential).',
    }),
    state: z.enum(['active', 'failing', 'disabled']).meta({
      description: 'Its state when the notice was sent (enabled again meanwhile: not disabled).',
    }),
    failing_since: isoOrNull,
    disabled_at: isoOrNull,
    disablements: z.int().min(0).meta({ description: 'How often it was disabled so far.' }),
    last_status_code: z.int().nullable(),
    last_error: z.string().nullable(),
    pending_events: z.int().min(0).meta({ description: 'Events kept for it.' }),
  }),
});

export const WEBHOOKS: readonly WebhookSpec[] = [
  {
    name: 'streamEvm',
    summary: 'Stream webhook (EVM chains)',
    description: `Sent to the \`webhook\` of POST /v2/stream/create (or the \`stream_webhook\` of /v2/liveaml/create) for every transaction on an EVM chain (eth, bsc, polygon, avalanche, arb, op) that touches the streamed address: as sender, recipient, created contract, or party of an ERC-20/721/1155 Transfer, TransferSingle, TransferBatch, Approval or ApprovalForAll log. Sent twice, each under its own \`webhook-id\`: with \`confirmed: false\` when the block is indexed, and with \`confirmed: true\` once it has the network's confirmations (README, "Nodes: what Tollgate needs of them": eth 12, bsc 15, polygon 128, …). A transaction touching several streamed addresses is sent once per address (\`tx.address\`). If the block is reorganised away, no confirmed delivery follows and what may have reached you is retracted (the \`retraction\` webhook).

${CHAIN_DELIVERY}

Chain integers (\`value\`, \`gas\`, \`gasPrice\`, \`tokenID\`, \`tokenValue\`, token \`value\`) are exact JSON numbers that may exceed 2^53 (README, "Stream webhooks").`,
    body: StreamEvmBody,
    example: streamEvmExample,
  },
  {
    name: 'streamBitcoin',
    summary: 'Stream webhook (Bitcoin-family chains)',
    description: `Sent to the stream \`webhook\` for every transaction on bitcoin, litecoin or doge that pays or spends a coin of the streamed address, in the spec's Bitcoin shape with extra top-level fields (\`address\`, \`confirmed\`, \`network\`, \`blockNumber\`, \`blockHash\`). Sent unconfirmed when the block is indexed and again confirmed after the network's confirmations (bitcoin 6, litecoin 6, doge 40), each under its own \`webhook-id\`; one delivery per streamed address the transaction touches. A reorg cancels what was not sent and retracts what may have been (the \`retraction\` webhook).

${CHAIN_DELIVERY}

Amounts are integers in the smallest unit (satoshi, litoshi, koinu), exact JSON numbers; a coinbase input has \`coin: null\`; \`address\` is null for a script that pays no single address (README, "Bitcoin-family chains").`,
    body: StreamBitcoinBody,
    example: streamBitcoinExample,
  },
  {
    name: 'liveAml',
    summary: 'Live AML webhook',
    description: `Sent to the \`webhook\` of POST /v2/liveaml/create (or the \`aml_webhook\` of /v2/stream/create) when a transaction of a tracked address (EVM or Bitcoin-family) brings a risk tag: a counterparty labelled X gives \`direct_X\`, a counterparty of a counterparty \`indirect_X\`. Also sent, with \`hash: ""\` and \`block_number: 0\`, when a label import makes new risk tags true for a tracked address. Sent once, when the block is indexed: no \`confirmed\` field and no confirmed copy. The same alert is listed by GET /v2/liveaml/events. A delivered alert of a transaction whose block is reorganised away is retracted (the \`retraction\` webhook).

${CHAIN_DELIVERY}

See README, "Live AML webhooks".`,
    body: LiveAmlBody,
    example: liveAmlExample,
  },
  {
    name: 'travelRule',
    summary: 'Travel rule webhook',
    description: `Sent to the key's travel rule webhook (POST /v2/travelrule/webhook, else the configured \`TOLLGATE_TRAVEL_RULE_WEBHOOK_URL\`; https only) when a transfer needs the backend or changes on the other VASP's side:

- \`OTHER_VASP_APPROVED\` (with \`beneficiary_address\` and \`beneficiary_address_differs\`): the beneficiary VASP approved a withdrawal; pay out to \`beneficiary_address\` and call POST /v2/travelrule/send_tx_hash.
- \`OTHER_VASP_REJECTED\`: it rejected or cancelled it, or could not be reached; informational.
- \`WAITING_ADDRESS_DATA\` (with \`persons\` and \`accountNumber\`): an operator accepted a deposit announced over TRP; find the customer and call POST /v2/travelrule/send_address.
- \`TRANSACTION_CONFIRMED\` (with \`txid\`): the originator VASP confirmed the deposit with its transaction hash.

${DELIVERY} No \`sequence\`. With no receiver registered the webhook waits (retried) until one is. The body may carry personal data: it is never stored in clear, and rebuilt identically at each attempt (README, "Travel Rule").`,
    body: TravelRuleBody,
    example: travelRuleExample,
  },
  {
    name: 'retraction',
    summary: 'Retraction after a reorg',
    description: `Sent when a reorg removes the block of a transaction whose stream webhook (EVM or Bitcoin-family) or live AML webhook may have reached you: it was delivered, or a POST of it went out whole and got no answer. The body is the retracted one, byte for byte, with \`"removed": true\` right after \`sequence\` and \`confirmed\` false (a live AML body has no \`confirmed\`), under a \`webhook-id\` and a \`sequence\` of its own, sent to the same URL after the events it retracts are settled. One per subscription, transaction and block (each time the block is removed); the retraction of something you never got is safe to ignore. If the transaction is mined again, it is delivered again with its new block; if the chain goes back to the removed block, its transactions are delivered again after their retraction, under new webhook-ids and higher sequences (the latest sequence of a transaction and block is its state). Travel rule webhooks are never retracted.

${DELIVERY} See README, "Reorgs and retractions".`,
    body: RetractionBody,
    example: retractionExample,
  },
  {
    name: 'test',
    summary: 'Test webhook',
    description: `Sent on request (POST /v2/webhook/test) to a subscription's receiver, the key's travel rule webhook, or a URL given: signed like every webhook (both secrets during a rotation's overlap), with \`"test": true\` and no event. Sent once, without retries, also while the subscription is paused or its endpoint disabled; its attempt is listed by GET /v2/webhook/deliveries. No \`sequence\`. Answer 2xx (README, "Webhook operations").`,
    body: TestBody,
    example: {
      type: 'test',
      test: true,
      kind: 'stream',
      address: '0x9e7454285fbbfc8c034bad9cb4cbfba6254d7d87',
      created_at: '2025-03-14T09:26:53.589Z',
      message:
        'A test webhook from Tollgate, sent on request: it carries no event. Verify its signature and answer 2xx.',
    },
  },
  {
    name: 'endpointDisabled',
    summary: 'Operator notice: an endpoint was disabled',
    description: `Sent to the operator, not to an API key: to \`TOLLGATE_OPERATOR_WEBHOOK_URL\`, signed per Standard Webhooks with \`TOLLGATE_OPERATOR_WEBHOOK_SECRET\` (the operator's own \`whsec_\` secret, not a key's), when an endpoint (a key's webhook URL) had no 2xx for longer than \`TOLLGATE_WEBHOOK_DISABLE_AFTER_HOURS\` and was disabled: its events are kept, pending, and not sent until it is enabled again (POST /v2/webhook/endpoints/enable, or the dashboard). The same \`webhook-id\` on every attempt; retried with backoff for about four days on a 5xx, 408, 429 or no answer. No webhook body and no whole URL are in it (README, "Webhook operations").`,
    body: EndpointDisabledBody,
    example: {
      type: 'webhook.endpoint_disabled',
      timestamp: '2025-03-19T09:30:12.004Z',
      data: {
        endpoint_id: '17',
        api_key_id: '3',
        api_key_name: 'backend',
        host: 'backend.example.com',
        state: 'disabled',
        failing_since: '2025-03-14T09:27:41.112Z',
        disabled_at: '2025-03-19T09:30:12.004Z',
        disablements: 1,
        last_status_code: 503,
        last_error: 'receiver answered 503',
        pending_events: 1289,
      },
    },
  },
];
