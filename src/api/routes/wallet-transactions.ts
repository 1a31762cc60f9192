import { z } from 'zod';
import type { Sql } from '../../db/index.js';
import { ErrorNumber } from '../../errors.js';
import { addressOrThrow } from './addresses.js';
import { HISTORY_HEADER, putHistoryHeader } from './wallet-history.js';
import { PageAnchors, type PageCache, walletTransactions } from '../../wallet/index.js';
import { defineRoute, type Route } from '../route.js';
import { Address, PageQuery, envelope } from '../schemas.js';

const digits = z.string().regex(/^\d+$/);

export const WalletTransaction = z
  .object({
    id: z.string().meta({ description: '"<network symbol>:<hash>", stable across pages.' }),
    to_address: z
      .string()
      .meta({ description: 'Recipient; the created contract for a contract creation.' }),
    from_address: z.string(),
    hash: z.string(),
    gas: digits.meta({ description: 'Gas limit of the transaction.' }),
    gas_price: digits.meta({ description: 'Effective gas price paid, in wei.' }),
    timestamp: digits.meta({ description: 'Block time, Unix seconds.' }),
    value: digits.meta({ description: "Native value in the chain's smallest unit." }),
    block_number: digits,
    logs: z.array(z.object({ address: z.string(), topics: z.array(z.string()), data: z.string() })),
    network: z
      .string()
      .meta({ description: 'Network symbol; Polygon items say "matic" as the spec shows.' }),
    status: z.int().nullable().meta({
      description:
        "Not in the spec: the receipt's status, 1 success, 0 reverted (its value did not move and it has no logs, though the item still shows the value sent); null where the node gave none (receipts before Byzantium).",
    }),
  })
  .meta({ id: 'WalletTransaction' });

export function walletTransactionRoutes(
  sql: Sql,
  evmNetworks: readonly string[],
  /** Pages kept (src/wallet/page-cache.ts); none: every page is built. */
  cache?: PageCache,
): Route[] {
  const anchors = new PageAnchors(sql);
  return [
    defineRoute(
      {
        method: 'get',
        path: '/wallet/transactions',
        tag: 'Wallet',
        summary: 'Transactions of a wallet on every indexed EVM network, newest first',
        description:
          "Every transaction that touches the address (sender, recipient, created contract, or party of a token Transfer/Approval) on every EVM network this appliance indexes, from the indexed history (from each network's start block, or older where a backfill added it; the X-Tollgate-History header says how far each reaches). Ordered by block time, newest first.",
        query: z.object({ address: Address, ...PageQuery(true) }),
        response: envelope(z.array(WalletTransaction), true),
        fieldErrors: { address: ErrorNumber.INVALID_ADDRESS },
        errors: [ErrorNumber.INVALID_ADDRESS, ErrorNumber.BAD_REQUEST],
        messages: { [ErrorNumber.INVALID_ADDRESS]: 'Invalid Address.' },
        headers: HISTORY_HEADER,
        example: {
          query: { address: '0x5fA78c6C209EEc0c5C6BDBfb1bd48e65291b76AA', page: '1', limit: '10' },
          data: [
            {
              id: 'eth:0x23e6a971b85b00abf027b28f89d84baa80af5255f07f9f1909f917f2e69f8160',
              to_address: '0xdac17f958d2ee523a2206206994597c13d831ec7',
              from_address: '0x6183d9a9f3a8e84d5577bbbfe28f112be431349b',
              hash: '0x23e6a971b85b00abf027b28f89d84baa80af5255f07f9f1909f917f2e69f8160',
              gas: '63209',
              gas_price: '18394711025',
              timestamp: '1741945319',
              value: '0',
              block_number: '22051240',
              logs: [
                {
                  address: '0xdac17f958d2ee523a2206206994597c13d831ec7',
                  topics: [
                    '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
                    '0x0000000000000000000000006183d9a9f3a8e84d5577bbbfe28f112be431349b',
                    '0x0000000000000000000000005fa78c6c209eec0c5c6bdbfb1bd48e65291b76aa',
                  ],
                  data: '0x000000000000000000000000000000000000000000000000000000009502f900',
                },
              ],
              network: 'eth',
              status: 1,
            },
            {
              id: 'eth:0x80033a82dd0a78185641ef029475485162ea6803eb19fafc1c943903e55a3413',
              to_address: '0x5fa78c6c209eec0c5c6bdbfb1bd48e65291b76aa',
              from_address: '0x6183d9a9f3a8e84d5577bbbfe28f112be431349b',
              hash: '0x80033a82dd0a78185641ef029475485162ea6803eb19fafc1c943903e55a3413',
              gas: '21000',
              gas_price: '17851300412',
              timestamp: '1741945247',
              value: '500000000000000000',
              block_number: '22051234',
              logs: [],
              network: 'eth',
              status: 1,
            },
          ],
          page_count: 1,
        },
      },
      async ({ query, c }) => {
        const address = addressOrThrow('eth', query.address, evmNetworks);
        // The history's reach is read in the page's own statement: one snapshot for both.
        const { json, total, reach } = await walletTransactions(
          sql,
          address,
          query.page,
          query.limit,
          { anchors, cache, reachNetworks: evmNetworks },
        );
        putHistoryHeader(c, reach);
        return { json, page_count: Math.ceil(total / query.limit) };
      },
    ),
  ];
}
