import { z } from 'zod';
import type { Sql } from '../../db/index.js';
import { ApiError, ErrorNumber } from '../../errors.js';
import {
  listEvents,
  listTracking,
  startTracking,
  startTrackingWithReplay,
  stopTracking,
} from '../../liveaml/index.js';
import { networkInfo } from '../../config/networks.js';
import { setHistoryHeader } from './wallet-history.js';
import type { AllowList } from '../../net/ssrf.js';
import type { SubscriptionLimits } from '../../streams/index.js';
import { ALL_TAGS } from '../../aml/index.js';
import { defineRoute, type Route } from '../route.js';
import { Address, PageQuery, WebhookUrl, envelope } from '../schemas.js';
import {
  FromBlock,
  LIVE_AML_COVERS,
  REPLAY_HEADERS,
  streamAddressOrThrow,
  webhookOrThrow,
} from './streams.js';
import { nodeChains } from '../../indexer/status.js';

/**
 * Live AML tracking. Error numbers: the spec lists 5004 for "liveaml create, delete, list,
 * events" with generic text and does not say on what condition. We answer with the number that
 * names the problem, as /stream does: 5004 for an invalid `webhook` or `stream_webhook`, 5002 for
 * an invalid or missing address, 5003 for deleting what this key does not track, 5000 for a
 * missing or out-of-range `page`/`limit` or a malformed body.
 */

export const LiveAmlTrackingRecord = z
  .object({
    address: z.string(),
    aml_webhook: z.url(),
    created_at: z.iso.datetime(),
    has_stream: z.boolean().meta({ description: 'The same key also streams this address.' }),
    paused: z.boolean().meta({
      description:
        'Not in the spec: paused (POST /liveaml/pause); its alerts are kept, not sent, until it is resumed.',
    }),
  })
  .meta({ id: 'LiveAmlTrackingRecord' });

const Tags = z.record(z.string(), z.boolean());

const LiveAmlTrigger = z
  .object({
    tag: z.string().meta({ description: 'A tag of hash_tags, e.g. direct_mixer.' }),
    counterparty: z
      .string()
      .meta({ description: 'The address the transaction shared with the tracked one.' }),
    labelled: z.string().meta({
      description:
        'The address that carries the label: the counterparty for direct_, a counterparty of it for indirect_.',
    }),
    sources: z.array(z.string()).meta({
      description: 'Label sources, e.g. ofac, a CSV source, onchain:chainalysis_sanctions_oracle.',
    }),
  })
  .meta({ id: 'LiveAmlTrigger' });

export const LiveAmlEventRecord = z
  .object({
    id: z.string(),
    address: z.string().meta({ description: 'The tracked wallet.' }),
    event: z.object({
      hash: z.string(),
      tags: Tags.meta({
        description:
          'AML tags: only the indirect_ variants, as the spec shows for this list (the webhook has all of them).',
      }),
      score: z.int().min(0).max(100).meta({
        description: 'Risk score 0–100, 100 the highest risk (the same scale as /analyze/aml).',
      }),
      hash_tags: Tags.meta({ description: 'The tags true for this transaction.' }),
      block_number: z.int(),
      triggered_by: z.array(LiveAmlTrigger).meta({
        description:
          'Not in the spec: which counterparty of the transaction brought each of its tags (at most 10 per tag); for an event of a label change, the counterparties through which the changed labels reach the address (none for a tag of the address itself).',
      }),
    }),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'LiveAmlEventRecord' });

const CreateBody = z.object({
  address: Address,
  webhook: WebhookUrl.meta({ description: 'URL that receives the live AML webhooks.' }),
  stream_webhook: WebhookUrl.optional().meta({
    description: 'Also creates (or updates) the stream for the address, with this webhook.',
  }),
  from_block: FromBlock.meta({
    description:
      'Not in the spec. The address\'s past transactions in the indexed blocks from this block number on (each indexed network of its family) are checked first, in chain order, and a risky one raises its alert with `"replay": true`; alerts of live transactions come after them. Only the live AML webhook is replayed (not the stream). The answer\'s X-Tollgate-History header says how far the indexed history reaches.',
  }),
});

export function liveAmlRoutes(
  sql: Sql,
  allow: AllowList,
  indexed: readonly string[],
  limits: SubscriptionLimits,
): Route[] {
  return [
    defineRoute(
      {
        method: 'post',
        path: '/liveaml/create',
        tag: 'Live AML',
        summary: 'Track an address for live AML (or update its webhooks)',
        description:
          'Calls `webhook` when the address takes part in a risky transaction. `stream_webhook` also creates the stream for the address. Creating the same address again updates the webhooks; a stream that exists is kept when `stream_webhook` is not given.',
        body: CreateBody,
        response: envelope(z.null()),
        fieldErrors: {
          address: ErrorNumber.INVALID_ADDRESS,
          webhook: ErrorNumber.INVALID_WEBHOOK,
          stream_webhook: ErrorNumber.INVALID_WEBHOOK,
        },
        errors: [
          ErrorNumber.INVALID_ADDRESS,
          ErrorNumber.INVALID_WEBHOOK,
          ErrorNumber.BAD_REQUEST,
          ErrorNumber.SUBSCRIPTION_LIMIT,
        ],
        headers: { 'X-Tollgate-History': REPLAY_HEADERS['X-Tollgate-History'] },
        example: {
          body: {
            address: '0x5fA78c6C209EEc0c5C6BDBfb1bd48e65291b76AA',
            webhook: 'https://backend.example.com/hooks/aml',
            stream_webhook: 'https://backend.example.com/hooks/stream',
          },
          data: null,
        },
      },
      async ({ body, apiKey, c }) => {
        const { address, family } = streamAddressOrThrow(body.address, {
          followed: indexed,
          chains: await nodeChains(sql),
          covers: LIVE_AML_COVERS,
        });
        const webhook = await webhookOrThrow(body.webhook, allow, 'webhook');
        const streamWebhook = body.stream_webhook
          ? await webhookOrThrow(body.stream_webhook, allow, 'stream_webhook')
          : undefined;
        if (body.from_block === undefined) {
          await startTracking(sql, apiKey.id, address, family, webhook, streamWebhook, limits);
          return { data: null };
        }
        await startTrackingWithReplay(
          sql,
          {
            apiKeyId: apiKey.id,
            address,
            family,
            amlWebhook: webhook,
            ...(streamWebhook ? { streamWebhook } : {}),
          },
          BigInt(body.from_block),
          limits,
        );
        await setHistoryHeader(
          c,
          sql,
          indexed.filter((n) => networkInfo(n)?.family === family),
        );
        return { data: null };
      },
    ),

    defineRoute(
      {
        method: 'delete',
        path: '/liveaml/delete',
        tag: 'Live AML',
        summary: 'Stop live AML tracking of an address',
        description:
          'The stream of the address, if any, is kept. An address this key does not track gets error 5003. Events already recorded stay listed.',
        query: z.object({ address: Address }),
        response: envelope(z.null()),
        fieldErrors: { address: ErrorNumber.INVALID_ADDRESS },
        errors: [ErrorNumber.INVALID_ADDRESS, ErrorNumber.NOT_FOUND_FOR_KEY],
        example: { query: { address: '0x5fA78c6C209EEc0c5C6BDBfb1bd48e65291b76AA' }, data: null },
      },
      async ({ query, apiKey }) => {
        const { address } = streamAddressOrThrow(query.address, { covers: LIVE_AML_COVERS });
        if (!(await stopTracking(sql, apiKey.id, address))) {
          throw new ApiError(
            400,
            ErrorNumber.NOT_FOUND_FOR_KEY,
            'This key does not track that address.',
          );
        }
        return { data: null };
      },
    ),

    defineRoute(
      {
        method: 'get',
        path: '/liveaml/list',
        tag: 'Live AML',
        summary: "List this key's tracked addresses",
        query: z.object(PageQuery(true)),
        response: envelope(z.array(LiveAmlTrackingRecord), true),
        errors: [ErrorNumber.BAD_REQUEST],
        example: {
          query: { page: '1', limit: '10' },
          data: [
            {
              address: '0x5fa78c6c209eec0c5c6bdbfb1bd48e65291b76aa',
              aml_webhook: 'https://backend.example.com/hooks/aml',
              created_at: '2025-03-14T09:31:07.412Z',
              has_stream: true,
              paused: false,
            },
          ],
          page_count: 1,
        },
      },
      async ({ query, apiKey }) => {
        const { rows, total } = await listTracking(sql, apiKey.id, query.page, query.limit);
        return { data: rows, page_count: Math.ceil(total / query.limit) };
      },
    ),

    defineRoute(
      {
        method: 'get',
        path: '/liveaml/events',
        tag: 'Live AML',
        summary: "List the live AML events of this key's tracked addresses, newest first",
        description:
          'Events of transactions in blocks later reorganised away are not listed. Events stay listed after the tracking is deleted.',
        query: z.object(PageQuery(true)),
        response: envelope(z.array(LiveAmlEventRecord), true),
        errors: [ErrorNumber.BAD_REQUEST],
        example: {
          query: { page: '1', limit: '10' },
          data: [
            {
              id: '5812',
              address: '0x5fa78c6c209eec0c5c6bdbfb1bd48e65291b76aa',
              event: {
                hash: '0x80033a82dd0a78185641ef029475485162ea6803eb19fafc1c943903e55a3413',
                // The indirect_ tags of the tracked address; none true here.
                tags: Object.fromEntries(
                  ALL_TAGS.filter((t) => t.startsWith('indirect_')).map((t) => [t, false]),
                ),
                score: 53,
                hash_tags: { direct_mixer: true },
                block_number: 22051234,
                triggered_by: [
                  {
                    tag: 'direct_mixer',
                    counterparty: '0x6183d9a9f3a8e84d5577bbbfe28f112be431349b',
                    labelled: '0x6183d9a9f3a8e84d5577bbbfe28f112be431349b',
                    sources: ['internal-watchlist'],
                  },
                ],
              },
              created_at: '2025-03-14T09:40:49.305Z',
            },
          ],
          page_count: 1,
        },
      },
      async ({ query, apiKey }) => {
        const { rows, total } = await listEvents(sql, apiKey.id, query.page, query.limit);
        return { data: rows, page_count: Math.ceil(total / query.limit) };
      },
    ),
  ];
}
