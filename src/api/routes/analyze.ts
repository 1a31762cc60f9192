import type { PublicClient } from 'viem';
import { z } from 'zod';
import { networkInfo } from '../../config/networks.js';
import { inOneSnapshot, type Sql } from '../../db/index.js';
import { ApiError, ErrorNumber } from '../../errors.js';
import { ALL_TAGS, analyzeAddress, explainAnalysis } from '../../aml/index.js';
import type { AmlConfig } from '../../config/aml.js';
import { startTracking } from '../../liveaml/index.js';
import type { SubscriptionLimits } from '../../streams/index.js';
import { normalizeTxHash, txDetail } from '../../txdetail/index.js';
import type { AllowList } from '../../net/ssrf.js';
import { defineRoute, type Route } from '../route.js';
import { Address, Network, WebhookUrl, envelope } from '../schemas.js';
import { LIVE_AML_COVERS, streamAddressOrThrow, webhookOrThrow } from './streams.js';
import { addressOrThrow } from './addresses.js';
import { nodeChains } from '../../indexer/status.js';
import type { UtxoRpc } from '../../chains/utxo/client.js';

export interface AnalyzeDeps {
  sql: Sql;
  allow: AllowList;
  aml: AmlConfig;
  /** Networks this appliance indexes. */
  networks: readonly string[];
  evmClients: ReadonlyMap<string, PublicClient>;
  utxoClients: ReadonlyMap<string, UtxoRpc>;
  /** A `webhook` starts a live AML tracking: the key's limit applies. */
  limits: SubscriptionLimits;
}

const AmlTags = z.object(Object.fromEntries(ALL_TAGS.map((t) => [t, z.boolean()]))).meta({
  id: 'AmlTags',
  description:
    'Base tags, and direct_/indirect_ variants of all but new_wallet and invalid_tokens.',
});
const LabelSource = z
  .object({ source: z.string(), name: z.string() })
  .meta({ description: 'A label source (ofac, a CSV source, onchain:<list>) and the label name.' });
const ExplainedCounterparty = z
  .object({
    address: z.string().meta({ description: 'A counterparty of the address (one hop).' }),
    labelled: z.string().meta({
      description:
        'The address carrying the label: the counterparty itself (direct_), or a counterparty of it (indirect_).',
    }),
    sources: z.array(LabelSource),
    transactions: z.int().meta({ description: 'Transactions shared with the counterparty.' }),
    sent: z.string().nullable().meta({
      description:
        'Native value sent to the counterparty, in whole units (EVM); null on Bitcoin-family networks.',
    }),
    received: z.string().nullable().meta({ description: 'Native value received from it (EVM).' }),
    share: z.number().nullable().meta({
      description: "(sent + received) / the address's native volume, 0 to 1 (EVM).",
    }),
  })
  .meta({ id: 'AmlExplainedCounterparty' });
const Explanation = z
  .object({
    labels_version: z.string().meta({
      description: 'Identifies the label set the answer was computed from (a hash of its state).',
    }),
    scoring_config: z
      .string()
      .meta({ description: 'Identifies the scoring configuration (a hash of `aml`).' }),
    tags: z.record(
      z.string(),
      z.object({
        level: z.enum(['base', 'direct', 'indirect']),
        hops: z.int().min(0).max(2),
        sources: z.array(LabelSource).optional(),
        counterparties: z.array(ExplainedCounterparty).optional().meta({
          description: 'At most 20, most transactions first.',
        }),
        counterparty_count: z.int().optional(),
        first_seen: z.int().nullable().optional(),
        transactions: z.int().optional(),
      }),
    ),
  })
  .meta({ id: 'AmlExplanation', description: 'Not in the spec: only with detail=true.' });
const Threshold = z
  .object({ low: z.int(), modarate: z.int(), high: z.int() })
  .meta({ description: 'Score bands (configurable, key `aml.thresholds`); spelled as the spec.' });

const SCORE_TEXT =
  'Score 0–100 where **100 is the highest risk** (one scale everywhere). Each true tag risks min(1, weight(tag)/100 × factor(level)), level = base, direct_ (one hop) or indirect_ (two hops); score = round(100 × (1 − Π(1 − risk))). Weights, factors and thresholds are configuration (`aml`).';

export const TxDetailSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    status: z.enum(['Success', 'Failed']),
    timestamp: z.int().meta({ description: 'Block time, Unix seconds.' }),
    network: z.string(),
    hash: z.string(),
    value: z
      .number()
      .meta({ description: "Native value in the network's unit (ETH, BTC, …) as a float." }),
    transfers: z.array(
      z.object({
        from: z.string(),
        to: z.string(),
        value: z.number(),
        token_name: z.string(),
        token_symbol: z.string(),
      }),
    ),
    aml_data: z.object({
      tags: z.record(z.string(), z.boolean()),
      score: z.int().min(0).max(100),
      threshold: Threshold,
    }),
  })
  .meta({ id: 'TxDetail' });

export function analyzeRoutes(deps: AnalyzeDeps): Route[] {
  return [
    defineRoute(
      {
        method: 'get',
        path: '/analyze/aml',
        tag: 'Security',
        summary: 'AML analysis of an address: risk score and every AML tag',
        description: `${SCORE_TEXT} Base tags come from labels (every network); direct_/indirect_ exposure, new_wallet and number_of_malicious_contracts_created need chain data, so they can be true only on networks this appliance indexes. \`webhook\` also starts live AML tracking of the address (EVM and Bitcoin-family only).`,
        query: z.object({
          address: Address,
          network: Network,
          webhook: WebhookUrl.optional(),
          detail: z
            .enum(['true', 'false'], { error: () => 'must be true or false' })
            .optional()
            .meta({
              description:
                'Not in the spec: true adds `explanation`, where each true tag comes from (labels and their sources, the counterparties, values exchanged).',
            }),
        }),
        response: envelope(
          z.object({
            score: z.int().min(0).max(100),
            tags: AmlTags,
            explanation: Explanation.optional(),
          }),
        ),
        fieldErrors: { address: ErrorNumber.INVALID_ADDRESS, webhook: ErrorNumber.INVALID_WEBHOOK },
        errors: [
          ErrorNumber.BAD_REQUEST,
          ErrorNumber.INVALID_ADDRESS,
          ErrorNumber.INVALID_WEBHOOK,
          ErrorNumber.SUBSCRIPTION_LIMIT,
        ],
        example: {
          query: { address: '0x5fA78c6C209EEc0c5C6BDBfb1bd48e65291b76AA', network: 'eth' },
          // A new wallet that received from a mixer: direct_mixer and new_wallet, all else false.
          data: {
            score: 53,
            tags: Object.fromEntries(
              ALL_TAGS.map((t) => [t, t === 'direct_mixer' || t === 'new_wallet']),
            ),
          },
        },
      },
      async ({ query, apiKey }) => {
        const address = addressOrThrow(query.network, query.address, deps.networks);
        const family = networkInfo(query.network)!.family;
        let webhook: string | undefined;
        if (query.webhook !== undefined) {
          if (family !== 'evm' && family !== 'utxo')
            throw new ApiError(
              400,
              ErrorNumber.INVALID_ADDRESS,
              `Invalid Address: ${LIVE_AML_COVERS} EVM and Bitcoin-family addresses, not ${query.network}.`,
            );
          // Tracked on the networks of its family this appliance indexes: refused when none.
          streamAddressOrThrow(query.address, {
            followed: deps.networks,
            chains: await nodeChains(deps.sql),
          });
          webhook = await webhookOrThrow(query.webhook, deps.allow, 'webhook');
        }
        const input = {
          network: query.network,
          address,
          indexed: deps.networks.includes(query.network),
        };
        // With detail, the score and its explanation come from one snapshot (a label removed
        // between them would leave a true tag unexplained, under the other label set's id).
        const data =
          query.detail === 'true'
            ? await inOneSnapshot(deps.sql, async (tx) => {
                const analysis = await analyzeAddress(tx, deps.aml, input);
                const explanation = await explainAnalysis(tx, deps.aml, {
                  network: query.network,
                  address,
                  tags: analysis.tags,
                });
                return { ...analysis, explanation };
              })
            : await analyzeAddress(deps.sql, deps.aml, input);
        if (webhook)
          await startTracking(
            deps.sql,
            apiKey.id,
            address,
            family,
            webhook,
            undefined,
            deps.limits,
          );
        return { data };
      },
    ),

    defineRoute(
      {
        method: 'get',
        path: '/analyze/tx_detail',
        tag: 'Security',
        summary: 'A transaction with its token transfers and AML data',
        description: `EVM: from the index, else from the network's node (for transactions older than the start block). Bitcoin-family: from the index, else from the node (it needs -txindex); \`from\` is the first input's address, \`to\` the first output not paying back to an input, \`value\` what left the senders, one transfer per output. aml_data is that of the transaction's parties: the union of their true tags and the highest of their scores. ${SCORE_TEXT} A malformed hash, or a transaction neither the index nor the node has, gets 5002; a network this appliance does not index, 5000.`,
        query: z.object({ hash: z.string().min(1).max(100), network: Network }),
        response: envelope(TxDetailSchema),
        fieldErrors: { hash: ErrorNumber.INVALID_ADDRESS },
        errors: [ErrorNumber.BAD_REQUEST, ErrorNumber.INVALID_ADDRESS],
        errorText: {
          [ErrorNumber.INVALID_ADDRESS]:
            "invalid transaction hash, or one neither the index nor the network's node knows (the spec's number for tx_detail)",
        },
        example: {
          query: {
            hash: '0x23e6a971b85b00abf027b28f89d84baa80af5255f07f9f1909f917f2e69f8160',
            network: 'eth',
          },
          // 2,500 USDT from an address labelled mixer; aml_data joins both parties' tags.
          data: {
            from: '0x6183d9a9f3a8e84d5577bbbfe28f112be431349b',
            to: '0xdac17f958d2ee523a2206206994597c13d831ec7',
            status: 'Success',
            timestamp: 1741945319,
            network: 'eth',
            hash: '0x23e6a971b85b00abf027b28f89d84baa80af5255f07f9f1909f917f2e69f8160',
            value: 0,
            transfers: [
              {
                from: '0x6183d9a9f3a8e84d5577bbbfe28f112be431349b',
                to: '0x5fa78c6c209eec0c5c6bdbfb1bd48e65291b76aa',
                value: 2500,
                token_name: 'Tether USD',
                token_symbol: 'USDT',
              },
            ],
            aml_data: {
              tags: { mixer: true, new_wallet: true, direct_mixer: true },
              score: 82,
              threshold: { low: 25, modarate: 50, high: 75 },
            },
          },
        },
      },
      async ({ query }) => {
        const family = networkInfo(query.network)!.family;
        const canLook = deps.networks.includes(query.network) || deps.evmClients.has(query.network);
        if ((family !== 'evm' && family !== 'utxo') || !canLook)
          throw new ApiError(
            400,
            ErrorNumber.BAD_REQUEST,
            `Network ${query.network} is not indexed by this appliance.`,
          );
        const hash = normalizeTxHash(query.network, query.hash);
        if (!hash)
          throw new ApiError(
            400,
            ErrorNumber.INVALID_ADDRESS,
            `Invalid transaction hash for ${query.network}.`,
          );
        const detail = await txDetail(
          {
            sql: deps.sql,
            aml: deps.aml,
            indexed: deps.networks,
            evmClients: deps.evmClients,
            utxoClients: deps.utxoClients,
          },
          query.network,
          hash,
        );
        if (!detail) throw new ApiError(400, ErrorNumber.INVALID_ADDRESS, 'Transaction not found.');
        return { data: detail };
      },
    ),
  ];
}
