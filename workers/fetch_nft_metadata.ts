import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { fetchNftMetadata, type NftMetadataDeps } from '../src/wallet/fetch-metadata.js';

const Payload = z.object({
  network: z.string().regex(/^[a-z0-9]+$/),
  token: z.string().regex(/^0x[0-9a-f]{40}$/),
  token_id: z.string().regex(/^\d{1,78}$/),
  standard: z.enum(['ERC721', 'ERC1155']),
});

/** graphile-worker task `fetch_nft_metadata`: reads one token's URI and fetches its metadata. */
export function fetchNftMetadataTask(deps: NftMetadataDeps): Task {
  return async (payload, helpers) => {
    const key = Payload.parse(payload);
    await fetchNftMetadata(deps, key, {
      id: helpers.job.id,
      attempts: helpers.job.attempts,
      max_attempts: helpers.job.max_attempts,
    });
  };
}
