import { z } from 'zod';
import type { Sql } from '../../db/index.js';
import { ErrorNumber } from '../../errors.js';
import { addressOrThrow } from './addresses.js';
import { networkInfo } from '../../config/networks.js';
import { HISTORY_HEADER, setHistoryHeader } from './wallet-history.js';
import { log } from '../../log.js';
import {
  listNftHoldings,
  NftItem,
  REFETCH_FAILED_AFTER,
  requestMetadataFetches,
  toNftItem,
  waitForMetadata,
} from '../../wallet/index.js';
import { defineRoute, type Route } from '../route.js';
import { Address, envelope } from '../schemas.js';

/** Metadata fetches one request enqueues at most; a wallet with more gets the rest on later requests. */
export const MAX_FETCHES_PER_REQUEST = 1000;
/** How long an answer waits for the metadata fetches it started (a first look at a wallet). */
export const METADATA_WAIT_MS = 2000;

const nftKey = (h: { network: string; token: string; token_id: string }) =>
  `${h.network}:${h.token}:${h.token_id}`;

const PENDING_HEADER = {
  'X-Tollgate-Metadata-Pending':
    'Not in the spec: how many items have metadata on its way (metadata_status "pending"); present only then, with Cache-Control: no-store. Ask again shortly rather than keep this answer.',
};

const NftQuery = z.object({
  address: Address,
  refresh: z.enum(['true', 'false']).optional().meta({
    description:
      'true: fetch the metadata of every NFT of the wallet again (the answer still shows what is known now).',
  }),
});

/**
 * GET /wallet/nfts: what the wallet holds now, from the indexed transfers, with the metadata
 * fetched so far. Missing metadata is enqueued and waited for a little (METADATA_WAIT_MS): what
 * is still on its way then is listed with what is known, and marked so.
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
          `Metadata is fetched by the worker (tokenURI/uri, then http(s), ipfs:// through the configured gateway, or data:). An answer that asks for metadata not fetched yet (the first look at a wallet, refresh=true) waits up to ${METADATA_WAIT_MS / 1000} s for it; an item whose metadata is still on its way then, or cannot be fetched, is listed with empty strings for the metadata fields and says so in metadata_status, and the answer carries X-Tollgate-Metadata-Pending and Cache-Control: no-store. ` +
          `A failed fetch is tried again on a later request after ${REFETCH_FAILED_AFTER}; refresh=true asks again now.`,
        query: NftQuery,
        response: envelope(z.array(NftItem)),
        fieldErrors: { address: ErrorNumber.INVALID_ADDRESS },
        errors: [ErrorNumber.INVALID_ADDRESS, ErrorNumber.BAD_REQUEST],
        messages: { [ErrorNumber.INVALID_ADDRESS]: 'Invalid Address.' },
        headers: { ...HISTORY_HEADER, ...PENDING_HEADER },
        example: {
          query: { address: '0xf0B1593fa2BB764F24752601a6326A341c7641af' },
          data: [
            {
              name: 'Pixel Otter #1042',
              image: 'ipfs://QmYwAPJzv5CZsnAzt8auVZRn1pfejD2o6KQAwkmXNXSPfY/1042.png',
              media: [
                {
                  raw: 'ipfs://QmYwAPJzv5CZsnAzt8auVZRn1pfejD2o6KQAwkmXNXSPfY/1042.png',
                  gateway:
                    'https://ipfs.io/ipfs/QmYwAPJzv5CZsnAzt8auVZRn1pfejD2o6KQAwkmXNXSPfY/1042.png',
                },
              ],
              chainId: 1,
              network: 'eth',
              metadata: {
                name: 'Pixel Otter #1042',
                image: 'ipfs://QmYwAPJzv5CZsnAzt8auVZRn1pfejD2o6KQAwkmXNXSPfY/1042.png',
                description: 'One of 10,000 pixel otters.',
                attributes: [
                  { trait_type: 'Background', value: 'Teal' },
                  { trait_type: 'Level', value: '7' },
                ],
                external_url: 'https://otters.example/token/1042',
              },
              token_id: '1042',
              token_type: 'ERC721',
              description: 'One of 10,000 pixel otters.',
              contract_name: 'Pixel Otters',
              contract_symbol: 'OTTER',
              contract_address: '0xa15e1f7a81e731c3bf14743b55e03234e4dd0a5c',
              amount: '1',
              metadata_status: 'ok',
            },
          ],
        },
      },
      async ({ query, c }) => {
        const address = addressOrThrow('eth', query.address, evmNetworks);
        // The history's reach first, then the holdings: read later, they hold every block the
        // header names (read side by side, the header could name a block stored in between).
        await setHistoryHeader(c, sql, evmNetworks);
        let holdings = await listNftHoldings(sql, address, evmNetworks);
        const due = (
          query.refresh === 'true' ? holdings : holdings.filter((h) => h.fetch_due)
        ).slice(0, MAX_FETCHES_PER_REQUEST);
        if (due.length) {
          const enqueued = await requestMetadataFetches(sql, due);
          log.debug(
            {
              request_id: c.get('requestId'),
              items: holdings.length,
              enqueued,
              refresh: query.refresh === 'true',
            },
            'nft metadata fetches enqueued',
          );
          await waitForMetadata(sql, due, METADATA_WAIT_MS);
          holdings = await listNftHoldings(sql, address, evmNetworks);
          // Tokens indexed while this answer waited: asked for now, not waited for.
          const asked = new Set(due.map(nftKey));
          const more = holdings.filter((h) => h.fetch_due && !asked.has(nftKey(h)));
          await requestMetadataFetches(sql, more.slice(0, MAX_FETCHES_PER_REQUEST));
        }
        const pending = holdings.filter((h) => h.metadata_status === 'pending').length;
        if (pending) {
          c.header('X-Tollgate-Metadata-Pending', String(pending));
          c.header('Cache-Control', 'no-store');
        }
        return { data: holdings.map((h) => toNftItem(h, ipfsGateway)) };
      },
    ),
  ];
}
