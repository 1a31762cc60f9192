import { z } from 'zod';
import type { Sql } from '../../db/index.js';
import { ApiError, ErrorNumber } from '../../errors.js';
import { normalizeStreamAddress, utxoAddressFitsChain } from '../../chains/address.js';
import { nodeChains } from '../../indexer/status.js';
import {
  listStreams,
  type ReplayNetwork,
  type SubscriptionLimits,
  subscribe,
  subscribeWithReplay,
  unsubscribe,
} from '../../streams/index.js';
import { networkInfo } from '../../config/networks.js';
import { setHistoryHeader } from './wallet-history.js';
import { checkWebhookUrl, type AllowList } from '../../net/ssrf.js';
import { defineRoute, type Route } from '../route.js';
import { Address, PageQuery, WebhookUrl, envelope } from '../schemas.js';

export const StreamRecord = z
  .object({
    address: z.string(),
    stream_webhook: z.url(),
    created_at: z.iso.datetime(),
    has_stream: z.boolean(),
    paused: z.boolean().meta({
      description:
        'Not in the spec: paused (POST /stream/pause); its events are kept, not sent, until it is resumed.',
    }),
  })
  .meta({ id: 'StreamRecord' });

const BLOCK_NUMBER = { error: 'must be a block number' };

/** Not in the spec: replay the address's past transactions from this block on (create only). */
export const FromBlock = z
  // null is "not given", as JSON clients write an absent optional field (it was refused).
  .preprocess(
    (v) => (v === null ? undefined : v),
    z
      .union(
        [
          z.int(BLOCK_NUMBER).min(0, BLOCK_NUMBER).max(Number.MAX_SAFE_INTEGER, BLOCK_NUMBER),
          z.string(BLOCK_NUMBER).regex(/^\d{1,16}$/, BLOCK_NUMBER),
        ],
        BLOCK_NUMBER,
      )
      .optional(),
  )
  .meta({
    description:
      'Not in the spec. The address\'s past transactions in the indexed blocks from this block number on (on each indexed network of its family) are sent first, in chain order (by `sequence`), with `"replay": true` in the body; then live ones. A replayed transaction with enough confirmations is sent once, confirmed. Events this stream already had are not sent again. The answer\'s X-Tollgate-Replayed header says how many were queued, X-Tollgate-History how far the indexed history reaches.',
  });

/** The indexed networks of a family, with their confirmations: what a replay covers. */
export function replayNetworksOf(
  confirmations: ReadonlyMap<string, number>,
  family: string,
): ReplayNetwork[] {
  return [...confirmations]
    .filter(([network]) => networkInfo(network)?.family === family)
    .map(([network, n]) => ({ network, confirmations: n }));
}

const CreateBody = z.object({
  address: Address,
  webhook: WebhookUrl,
  aml_webhook: WebhookUrl.optional().meta({
    description: 'Also sets the live AML webhook for the address.',
  }),
  from_block: FromBlock,
});

/** What refuses live AML tracking of an address of another family (see normalizeStreamAddress). */
export const LIVE_AML_COVERS = 'live AML tracking covers';

/**
 * The stored form and family of an address a stream or live AML tracking may watch, or 5002.
 * With `followed` (the networks this appliance indexes), for a new one: refused when none of the
 * networks it is an address of is followed, since its webhook would never be called (a Bitcoin
 * address on an appliance that indexes EVM networks only was taken, found by an outside probe).
 */
export function streamAddressOrThrow(
  value: string,
  {
    followed,
    chains,
    covers,
  }: {
    followed?: readonly string[];
    /** The chain each Bitcoin-family network's node runs (nodeChains), where recorded. */
    chains?: ReadonlyMap<string, string>;
    /** What refuses an address of another family: "streams cover", "live AML tracking covers". */
    covers?: string;
  } = {},
) {
  const normalized = normalizeStreamAddress(value, covers);
  if (!normalized.ok) throw new ApiError(400, ErrorNumber.INVALID_ADDRESS, normalized.reason);
  if (followed && !normalized.networks.some((n) => followed.includes(n)))
    throw new ApiError(
      400,
      ErrorNumber.INVALID_ADDRESS,
      `Invalid Address: this appliance indexes no network this address is on (${normalized.testnet ? "a test network's address, " : ''}${normalized.networks.join(', ')}; indexed here: ${followed.join(', ') || 'none'}), so its webhook would never be called.`,
    );
  // A testnet address on an appliance whose node runs the mainnet (or a regtest one on a testnet
  // node) never appears there: it was taken, and its webhook never called (found by an outside
  // probe). A node whose chain is not recorded yet is taken to fit.
  if (chains && normalized.family === 'utxo') {
    const on = normalized.networks.filter((n) => !followed || followed.includes(n));
    const misfits = on.filter(
      (n) => chains.has(n) && utxoAddressFitsChain(n, normalized.address, chains.get(n)!) === false,
    );
    if (on.length && misfits.length === on.length)
      throw new ApiError(
        400,
        ErrorNumber.INVALID_ADDRESS,
        `Invalid Address: an address of another chain than this appliance's ${misfits.map((n) => `${n} node's (${chains.get(n)})`).join(', ')}, so its webhook would never be called.`,
      );
  }
  return normalized;
}

export async function webhookOrThrow(
  value: string,
  allow: AllowList,
  field: string,
): Promise<string> {
  const check = await checkWebhookUrl(value, allow);
  if (!check.ok)
    throw new ApiError(
      400,
      ErrorNumber.INVALID_WEBHOOK,
      `Invalid webhook: ${field} ${check.reason}.`,
    );
  return check.url.toString();
}

export const REPLAY_HEADERS = {
  'X-Tollgate-Replayed':
    'Not in the spec; with from_block only: how many past transactions were queued for the webhook.',
  'X-Tollgate-History':
    'Not in the spec; with from_block only: how far the indexed history of each network reaches (`eth=12000000-12345678`; see /wallet/transactions).',
};

export function streamRoutes(
  sql: Sql,
  allow: AllowList,
  confirmations: ReadonlyMap<string, number>,
  limits: SubscriptionLimits,
  /** The networks this appliance indexes. */
  followed: readonly string[],
): Route[] {
  return [
    defineRoute(
      {
        method: 'post',
        path: '/stream/create',
        tag: 'Stream',
        summary: 'Create a stream (or update the webhooks of an existing one)',
        description:
          'Calls `webhook` for every transaction that touches the address (sender, recipient, or party of an ERC-20/721/1155 Transfer or Approval), once unconfirmed and once confirmed. Creating the same address again updates it.',
        body: CreateBody,
        response: envelope(z.null()),
        fieldErrors: {
          address: ErrorNumber.INVALID_ADDRESS,
          webhook: ErrorNumber.INVALID_WEBHOOK,
          aml_webhook: ErrorNumber.INVALID_WEBHOOK,
        },
        errors: [
          ErrorNumber.INVALID_ADDRESS,
          ErrorNumber.INVALID_WEBHOOK,
          ErrorNumber.BAD_REQUEST,
          ErrorNumber.SUBSCRIPTION_LIMIT,
        ],
        messages: { [ErrorNumber.INVALID_WEBHOOK]: 'Invalid webhook.' },
        headers: REPLAY_HEADERS,
        example: {
          body: {
            address: '0x9E7454285FBBfc8c034bad9Cb4cBfba6254D7D87',
            webhook: 'https://backend.example.com/hooks/stream',
            aml_webhook: 'https://backend.example.com/hooks/aml',
          },
          data: null,
        },
      },
      async ({ body, apiKey, c }) => {
        const { address, family } = streamAddressOrThrow(body.address, {
          followed,
          chains: await nodeChains(sql),
        });
        const webhook = await webhookOrThrow(body.webhook, allow, 'webhook');
        const amlWebhook = body.aml_webhook
          ? await webhookOrThrow(body.aml_webhook, allow, 'aml_webhook')
          : undefined;
        const hooks = { stream: webhook, ...(amlWebhook ? { aml: amlWebhook } : {}) };
        if (body.from_block === undefined) {
          await subscribe(sql, apiKey.id, address, family, hooks, limits);
          return { data: null };
        }
        const networks = replayNetworksOf(confirmations, family);
        const queued = await subscribeWithReplay(
          sql,
          apiKey.id,
          address,
          family,
          hooks,
          BigInt(body.from_block),
          networks,
          limits,
        );
        c.header('X-Tollgate-Replayed', String(queued));
        await setHistoryHeader(
          c,
          sql,
          networks.map((n) => n.network),
        );
        return { data: null };
      },
    ),

    defineRoute(
      {
        method: 'delete',
        path: '/stream/delete',
        tag: 'Stream',
        summary: 'Delete a stream',
        description:
          'Stops the stream. An address this key does not stream gets error 5003. Events already on their way are not sent.',
        query: z.object({ address: Address }),
        response: envelope(z.null()),
        fieldErrors: { address: ErrorNumber.INVALID_ADDRESS },
        errors: [ErrorNumber.INVALID_ADDRESS, ErrorNumber.NOT_FOUND_FOR_KEY],
        messages: { [ErrorNumber.INVALID_ADDRESS]: 'Invalid Address.' },
        example: { query: { address: '0x9E7454285FBBfc8c034bad9Cb4cBfba6254D7D87' }, data: null },
      },
      async ({ query, apiKey }) => {
        const { address } = streamAddressOrThrow(query.address);
        if (!(await unsubscribe(sql, apiKey.id, address, 'stream'))) {
          throw new ApiError(
            400,
            ErrorNumber.NOT_FOUND_FOR_KEY,
            'This key has no stream for that address.',
          );
        }
        return { data: null };
      },
    ),

    defineRoute(
      {
        method: 'get',
        path: '/stream/list',
        tag: 'Stream',
        summary: "List this key's streamed addresses",
        query: z.object(PageQuery(false)),
        response: envelope(z.array(StreamRecord), true),
        errors: [ErrorNumber.BAD_REQUEST],
        example: {
          query: { page: '1', limit: '10' },
          data: [
            {
              address: '0x9e7454285fbbfc8c034bad9cb4cbfba6254d7d87',
              stream_webhook: 'https://backend.example.com/hooks/stream',
              created_at: '2025-03-14T09:26:53.589Z',
              has_stream: true,
              paused: false,
            },
            {
              address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
              stream_webhook: 'https://backend.example.com/hooks/stream',
              created_at: '2025-03-12T16:02:11.204Z',
              has_stream: true,
              paused: false,
            },
          ],
          page_count: 1,
        },
      },
      async ({ query, apiKey }) => {
        const { rows, total } = await listStreams(sql, apiKey.id, query.page, query.limit);
        return { data: rows, page_count: Math.ceil(total / query.limit) };
      },
    ),
  ];
}
