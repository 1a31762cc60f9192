import { z } from 'zod';
import type { Sql } from '../../db/index.js';
import { ApiError, ErrorNumber } from '../../errors.js';
import { normalizeEvmAddress } from '../../chains/address.js';
import { networkInfo } from '../../config/networks.js';
import { HISTORY_HEADER, setHistoryHeader } from './wallet-history.js';
import { log } from '../../log.js';
import {
  listNftHoldings,
  NftItem,
  REFETCH_FAILED_AFTER,
  requestMetadataFetches,
  toNftItem,
} from '../../wallet/index.js';
import { defineRoute, type Route } from '../route.js';
import { Address, envelope } from '../schemas.js';

/** Metadata fetches one request enqueues at most; a wallet with more gets the rest on later requests. */
export const MAX_FETCHES_PER_REQUEST = 1000;

const NftQuery = z.object({
  address: Address,
  refresh: z.enum(['true', 'false']).optional().meta({
    description:
      'true: fetch the metadata of every NFT of the wallet again (the answer still shows what is known now).',
  }),
});

/**
 * GET /wallet/nfts: what the wallet holds now, from the indexed transfers, with the metadata
 * fetched so far. Never waits on a fetch: missing metadata is enqueued and the item is listed
 * with what is known.
 */
export function walletNftRoutes(
  sql: Sql,
  networks: readonly string[],
  ipfsGateway: string,
): Route[] {
  const evmNetworks = networks.filter((n) => networkInfo(n)?.family === 'evm');
  return [
    defineRoute(
      {
        method: 'get',
        path: '/wallet/nfts',
        tag: 'Wallet',
        summary: 'List the NFTs a wallet holds now, on every indexed EVM network',
        description:
          "ERC-721 and ERC-1155 tokens the address holds (received minus sent, over the transfers indexed since each network's start block), on every EVM network this appliance indexes, in one answer ordered by network, contract and token id. " +
          'Metadata is fetched in the background (tokenURI/uri, then http(s), ipfs:// through the configured gateway, or data:); until it is there, or when it cannot be fetched, the item is listed with empty strings for the metadata fields. ' +
          `A failed fetch is tried again on a later request after ${REFETCH_FAILED_AFTER}; refresh=true asks again now.`,
        query: NftQuery,
        response: envelope(z.array(NftItem)),
        fieldErrors: { address: ErrorNumber.INVALID_ADDRESS },
        errors: [ErrorNumber.INVALID_ADDRESS, ErrorNumber.BAD_REQUEST],
        headers: HISTORY_HEADER,
      },
      async ({ query, c }) => {
        const address = normalizeEvmAddress(query.address);
        if (!address) throw new ApiError(400, ErrorNumber.INVALID_ADDRESS, 'Invalid Address.');
        const [holdings] = await Promise.all([
          listNftHoldings(sql, address, evmNetworks),
          setHistoryHeader(c, sql, evmNetworks),
        ]);
        const due = query.refresh === 'true' ? holdings : holdings.filter((h) => h.fetch_due);
        if (due.length) {
          const enqueued = await requestMetadataFetches(sql, due.slice(0, MAX_FETCHES_PER_REQUEST));
          log.debug(
            {
              request_id: c.get('requestId'),
              items: holdings.length,
              enqueued,
              refresh: query.refresh === 'true',
            },
            'nft metadata fetches enqueued',
          );
        }
        return { data: holdings.map((h) => toNftItem(h, ipfsGateway)) };
      },
    ),
  ];
}
