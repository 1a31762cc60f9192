import { z } from 'zod';
import type { Sql } from '../../db/index.js';
import { ApiError, ErrorNumber } from '../../errors.js';
import { normalizeEvmAddress } from '../../chains/address.js';
import { HISTORY_HEADER, setHistoryHeader } from './wallet-history.js';
import { walletTransactions } from '../../wallet/index.js';
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
  })
  .meta({ id: 'WalletTransaction' });

export function walletTransactionRoutes(sql: Sql, evmNetworks: readonly string[]): Route[] {
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
        headers: HISTORY_HEADER,
      },
      async ({ query, c }) => {
        const address = normalizeEvmAddress(query.address);
        if (!address) throw new ApiError(400, ErrorNumber.INVALID_ADDRESS, 'Invalid Address.');
        const [{ rows, total }] = await Promise.all([
          walletTransactions(sql, address, query.page, query.limit),
          setHistoryHeader(c, sql, evmNetworks),
        ]);
        return { data: rows, page_count: Math.ceil(total / query.limit) };
      },
    ),
  ];
}
